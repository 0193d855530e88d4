// The SDK's ledger option, used as code uses it: ten separate Node processes, each a script that
// imports the built package entry and buys one unit under the same daily budget at once. The
// budget holds across them (exactly as many as fit buy, the rest get PolicyError, exit code 12,
// before any request that charges), and the journal they share holds every debit exactly once,
// equal to what the sandbox debited, unit for unit.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, NODE, pickPools, startKit, type Kit } from '../helpers/index.js';

const SDK = fileURLToPath(new URL('../../dist/sdk.js', import.meta.url));

const script = `
import { ResellerClient, createUnitsSafely } from ${JSON.stringify(SDK)};
const [baseUrl, apiKey, dir, max, poolId] = process.argv.slice(1);
const client = new ResellerClient({ baseUrl, apiKey, ledger: { dir, policy: { maxSpendPerDay: Number(max) } } });
try {
  const r = await createUnitsSafely(client, { poolId, period: '24h' });
  console.log(JSON.stringify({ ok: true, refs: r.units.map((u) => u.proxyRef) }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, name: err.name, code: err.code, message: err.message }));
}
`;

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 5000, rateLimit: 10_000 });
});
afterAll(() => kit.close());

describe('SDK ledger and daily budget across processes', () => {
  it('ten buyers at once: exactly those that fit buy, each debit entered once, equal to the sandbox', async () => {
    const [pool] = await pickPools(kit);
    const price = pool!.prices['24h']!;
    const dir = join(kit.home.dir, 'ledger');
    const before = (await kit.state()).balanceUsd;
    const max = (price * 3 + price / 2).toFixed(2);
    const runs = await Promise.all(
      Array.from({ length: 10 }, () =>
        execa(NODE, ['--input-type=module', '-e', script, kit.sb.baseUrl, kit.sb.apiKey, dir, max, pool!.poolId], { reject: false }),
      ),
    );
    const results = runs.map((r) => {
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout) as { ok: boolean; refs?: string[]; name?: string; code?: string };
    });
    const bought = results.filter((r) => r.ok).flatMap((r) => r.refs!);
    const refused = results.filter((r) => !r.ok);
    expect(bought).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r).toMatchObject({ name: 'PolicyError', code: 'budget_exceeded' });

    const state = await kit.state();
    expect(state.units.map((u) => u.proxyRef).sort()).toEqual([...bought].sort());
    expect(cents(before - state.balanceUsd)).toBe(cents(price * 3));
    const [file] = (await import('node:fs')).readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !f.includes('balances'));
    const entries = readFileSync(join(dir, file!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries).toHaveLength(3);
    for (const u of state.units) {
      const mine = entries.filter((e) => e.ref === u.proxyRef);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        id: `create:${u.proxyRef}`,
        operation: 'create',
        source: 'sdk',
        poolId: pool!.poolId,
        period: '24h',
      });
      expect(cents(mine[0].priceUsd)).toBe(cents(u.pricePaid));
    }
  });
});
