// The SDK's createUnitsSafely takes the description the API takes (issue: its types had none), as
// code uses it: a Node process importing the built package entry, against the sandbox. The units
// carry the description on the server, a customer tag reaches the journal `spend` reads, and a
// description the API would refuse is refused before any request.
import { execa } from 'execa';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE, startKit, type Kit } from '../helpers/index.js';

const SDK = fileURLToPath(new URL('../../dist/sdk.js', import.meta.url));

const script = `
import { ResellerClient, createUnitsSafely } from ${JSON.stringify(SDK)};
const [baseUrl, apiKey, dir, description] = process.argv.slice(1);
const client = new ResellerClient({ baseUrl, apiKey, ledger: { dir } });
try {
  const r = await createUnitsSafely(client, { poolId: 'US-11', period: '3h', count: 2, description });
  console.log(JSON.stringify({ ok: true, refs: r.units.map((u) => u.proxyRef), descriptions: r.units.map((u) => u.description), undescribed: r.undescribed }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, name: err.name, message: err.message }));
}
`;

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit.close());

const runSdk = async (description: string) => {
  const r = await execa(
    NODE,
    ['--input-type=module', '-e', script, kit.sb.baseUrl, kit.sb.apiKey, join(kit.home.dir, 'ledger'), description],
    {
      reject: false,
    },
  );
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as {
    ok: boolean;
    refs: string[];
    descriptions: string[];
    undescribed: unknown[];
    name?: string;
    message?: string;
  };
};

describe('createUnitsSafely({ description })', () => {
  it('writes the description on every unit bought, and the customer tag reaches the journal', async () => {
    const r = await runSdk('for the launch customer=acme');
    expect(r).toMatchObject({ ok: true, descriptions: ['for the launch customer=acme', 'for the launch customer=acme'], undescribed: [] });
    const state = await kit.state();
    for (const ref of r.refs)
      expect((state.units.find((u) => u.proxyRef === ref) as { description?: string } | undefined)?.description).toBe(
        'for the launch customer=acme',
      );
    const dir = join(kit.home.dir, 'ledger');
    const journal = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
    for (const ref of r.refs) expect(journal).toMatch(new RegExp(`${ref}.*customer=acme|customer=acme.*${ref}`));
  });

  it('a description over 500 characters is refused before any request: nothing is bought', async () => {
    const before = (await kit.state()).units.length;
    const r = await runSdk('x'.repeat(501));
    expect(r).toMatchObject({ ok: false, name: 'UsageError', message: 'description must be a string of at most 500 characters' });
    expect((await kit.state()).units.length).toBe(before);
  });
});
