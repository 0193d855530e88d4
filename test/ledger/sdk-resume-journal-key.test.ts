// A batch's key recovered from the ledger's journal is held to what the key was used for, as the
// key-use record is (assertKeyFits): an SDK script in a new process (its purchase records in memory,
// so empty) that resumes a key with another pool, or a key whose purchases are more than 24 hours
// old (the API has forgotten it, so the batch's other items would be bought again), is refused
// before anything is sent; nothing is bought and the balance is unchanged. The same key and the same
// request still finish the batch, replaying what the journal holds.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, NODE, pickPools, startKit } from '../helpers/index.js';

const SDK = fileURLToPath(new URL('../../dist/sdk.js', import.meta.url));

const script = `
import { ResellerClient, createUnitsSafely } from ${JSON.stringify(SDK)};
const [baseUrl, apiKey, dir, poolId, key, count] = process.argv.slice(1);
const client = new ResellerClient({ baseUrl, apiKey, ledger: { dir } });
try {
  const r = await createUnitsSafely(client, { poolId, period: '24h', count: Number(count), idempotencyKey: key });
  console.log(JSON.stringify({ ok: true, bought: r.bought, replayed: r.replayed, refs: r.units.map((u) => u.proxyRef) }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, code: err.code }));
}
`;

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

describe('SDK: a key recovered from the journal is held to what it bought', () => {
  it('another pool under the same key is idempotency_key_reused, purchases over 24 hours old idempotency_key_expired: nothing sent', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [a, b] = await pickPools(k);
    const dir = join(k.home.configDir, 'data', 'ledger');
    const key = randomUUID();
    const sdk = async (poolId: string, count: number) => {
      const r = await execa(NODE, ['--input-type=module', '-e', script, k.sb.baseUrl, k.sb.apiKey, dir, poolId, key, String(count)], {
        reject: false,
        timeout: 60_000,
      });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      return JSON.parse(String(r.stdout)) as { ok: boolean; code?: string; bought?: number; replayed?: number; refs?: string[] };
    };
    const first = await sdk(a!.poolId, 2);
    expect(first).toMatchObject({ ok: true, bought: 2, replayed: 0 });
    const paid = (await k.state()).balanceUsd;

    // Another pool, the same key, a new process: refused, nothing bought.
    expect(await sdk(b!.poolId, 3)).toEqual({ ok: false, code: 'idempotency_key_reused' });
    expect((await k.state()).units.length).toBe(2);
    expect((await k.state()).balanceUsd).toBe(paid);

    // The same request finishes the batch: the two replayed, one bought.
    const again = await sdk(a!.poolId, 3);
    expect(again).toMatchObject({ ok: true, bought: 1, replayed: 2 });
    expect(again.refs!.slice(0, 2)).toEqual(first.refs);
    expect(cents(paid - (await k.state()).balanceUsd)).toBe(cents(a!.prices['24h']!));

    // The journal's purchases moved 25 hours back: the key is past the API's window.
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !f.endsWith('.balances.jsonl'));
    const path = join(dir, file!);
    const back = (iso: string) => new Date(Date.parse(iso) - 25 * 3600 * 1000).toISOString();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    writeFileSync(
      path,
      `${lines
        .map((l) => {
          const e = JSON.parse(l) as { at?: string };
          return JSON.stringify(e.at ? { ...e, at: back(e.at) } : e);
        })
        .join('\n')}\n`,
    );
    const before = await k.state();
    expect(await sdk(a!.poolId, 4)).toEqual({ ok: false, code: 'idempotency_key_expired' });
    expect((await k.state()).units.length).toBe(before.units.length);
    expect((await k.state()).balanceUsd).toBe(before.balanceUsd);
  });
});
