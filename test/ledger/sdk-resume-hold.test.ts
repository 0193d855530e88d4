// The SDK resuming a batch after the process that ran it was killed with kill -9 holding a budget
// hold: a Node script importing the built package entry buys 10 units under a daily budget with the
// ledger option, dies with 3 bought and 4 on the wire (they go through after it died, never entered
// in its ledger), and the same script run again with the same idempotency key is not refused by the
// dead run's hold (it takes it over, as `units create` does), buys only the 3 never bought, replays
// the 7 the dead run bought and says so item by item. The sandbox's units and balance, the journal
// and `spend holds` agree afterwards, and what is left of the day stays spendable.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, NODE, pickPools, startKit } from '../helpers/index.js';

const SDK = fileURLToPath(new URL('../../dist/sdk.js', import.meta.url));

const script = `
import { ResellerClient, createUnitsSafely } from ${JSON.stringify(SDK)};
const [baseUrl, apiKey, dir, max, poolId, key, count] = process.argv.slice(1);
const client = new ResellerClient({ baseUrl, apiKey, ledger: { dir, policy: { maxSpendPerDay: Number(max) } } });
try {
  const r = await createUnitsSafely(client, { poolId, period: '24h', count: Number(count), idempotencyKey: key });
  console.log(JSON.stringify({
    ok: true,
    key: r.idempotencyKey,
    bought: r.bought,
    replayed: r.replayed,
    refs: r.units.map((u) => u.proxyRef),
    items: r.items.map((i) => (i.ok ? { index: i.index, ref: i.unit.proxyRef, replayed: i.replayed } : { index: i.index, code: i.error.code })),
  }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, name: err.name, code: err.code, message: err.message }));
}
`;

interface Run {
  ok: boolean;
  key?: string;
  bought?: number;
  replayed?: number;
  refs?: string[];
  items?: { index: number; ref?: string; replayed?: boolean; code?: string }[];
  name?: string;
  code?: string;
  message?: string;
}

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const inFlight = (k: Kit) => async () => ((await k.state()) as { inFlightPurchases?: number }).inFlightPurchases ?? 0;

describe('SDK: a batch resumed with its key after kill -9', () => {
  it('takes the dead hold over, buys only what was never bought and tells bought from replayed', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const price = pool!.prices['24h']!;
    // The CLI's ledger directory of this home, so `proxyctl spend` reads what the SDK entered.
    const dir = join(k.home.configDir, 'data', 'ledger');
    const max = (price * 11).toFixed(2);
    const key = randomUUID();
    const sdk = (count: number) =>
      execa(NODE, ['--input-type=module', '-e', script, k.sb.baseUrl, k.sb.apiKey, dir, max, pool!.poolId, key, String(count)], {
        reject: false,
        timeout: 60_000,
      });

    // Three purchases go through; the next ones wait at the engine until the script is dead.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    let passed = 0;
    k.sb.world.engineDelay = () => (passed++ < 3 ? Promise.resolve() : gate);
    const victim = sdk(10);
    await expect.poll(async () => [(await k.state()).units.length, await inFlight(k)()], { timeout: 30_000, interval: 20 }).toEqual([3, 4]);
    victim.kill('SIGKILL');
    await victim;
    k.sb.world.engineDelay = () => Promise.resolve();
    open();
    await expect.poll(inFlight(k), { timeout: 30_000 }).toBe(0);
    const died = await k.state();
    expect(died.units).toHaveLength(7);
    const boughtByDead = died.units.map((u) => u.proxyRef);

    // The dead run's hold still counts (its last four purchases were never entered); it shows as
    // live until its lock goes stale (within 5 s), then as killed.
    const held = JSON.parse(String((await k.run(['spend', 'holds', '--json'])).stdout)) as { state: string; idempotencyKey?: string }[];
    expect(held).toMatchObject([{ operation: 'create', idempotencyKey: key }]);
    expect(['live', 'killed']).toContain(held[0]!.state);

    // Resumed at once, with the same key.
    const resumed = await sdk(10);
    expect(resumed.stderr).toBe('');
    const r = JSON.parse(resumed.stdout) as Run;
    expect(r.ok, r.message).toBe(true);
    expect(r.key).toBe(key);
    expect(r.refs).toHaveLength(10);
    expect(r.bought).toBe(3);
    expect(r.replayed).toBe(7);
    const replayedRefs = r.items!.filter((i) => i.replayed).map((i) => i.ref);
    const boughtRefs = r.items!.filter((i) => i.replayed === false).map((i) => i.ref);
    expect([...replayedRefs].sort()).toEqual([...boughtByDead].sort());
    expect(boughtRefs).toHaveLength(3);
    expect(r.items!.every((i) => i.code === undefined)).toBe(true);

    // Ten units, paid once each; the journal holds each once; no hold is left counting.
    let s = await k.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual([...r.refs!].sort());
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 10);
    const spent = JSON.parse(String((await k.run(['spend', '--json'])).stdout)) as { ref: string; priceUsd: number; source: string }[];
    expect(spent.map((e) => e.ref).sort()).toEqual([...r.refs!].sort());
    expect(spent.reduce((x, e) => x + cents(e.priceUsd), 0)).toBe(cents(price) * 10);
    expect(JSON.parse(String((await k.run(['spend', 'holds', '--json'])).stdout))).toEqual([]);

    // The same key once more buys nothing: all ten replayed, nothing charged.
    const again = JSON.parse((await sdk(10)).stdout) as Run;
    expect(again).toMatchObject({ ok: true, bought: 0, replayed: 10 });
    expect(cents(1000 - (await k.state()).balanceUsd)).toBe(cents(price) * 10);

    // What is left of the day (one unit) stays spendable under a new key; a second is refused.
    const one = async () =>
      JSON.parse(
        (
          await execa(NODE, ['--input-type=module', '-e', script, k.sb.baseUrl, k.sb.apiKey, dir, max, pool!.poolId, randomUUID(), '1'], {
            reject: false,
          })
        ).stdout,
      ) as Run;
    expect(await one()).toMatchObject({ ok: true, bought: 1, replayed: 0 });
    expect(await one()).toMatchObject({ ok: false, name: 'PolicyError', code: 'budget_exceeded' });
    s = await k.state();
    expect(s.units).toHaveLength(11);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 11);
  }, 120_000);
});
