// `spend --reconcile` against what the sandbox really charged: parallel runs on one config dir
// explain each other's debits by time (readings and debits overlap), a purchase made outside
// proxyctl is reported once, in the stretch where a balance read first shows it, also when it
// follows a batch killed with kill -9 and resumed; --reconcile has no --by.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

type Gap = { from: string; to: string; balanceBefore: number; balanceAfter: number; debitedUsd: number; unexplainedUsd: number };
async function reconcile(k: Kit): Promise<Gap[]> {
  const r = await k.run(['spend', '--reconcile', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout)) as Gap[];
}

/** A purchase straight against the API with the key, as a script or another tool would make it. */
async function buyElsewhere(k: Kit, poolId: string, period: string): Promise<void> {
  const r = await fetch(`${k.sb.baseUrl}/api/reseller/v1/units`, {
    method: 'POST',
    headers: { 'x-api-key': k.sb.apiKey, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ poolId, period }),
  });
  expect(r.status).toBe(201);
}

/** `proxyctl account`: any command that reads the balance. */
async function balance(k: Kit): Promise<number> {
  const r = await k.run(['account', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return (JSON.parse(String(r.stdout)) as { balanceUsd: number }).balanceUsd;
}

const keyOf = (stderr: unknown) => /--idempotency-key ([0-9a-f-]{36})/.exec(String(stderr))?.[1];

describe('spend --reconcile', () => {
  it('parallel purchases on one config dir leave nothing unexplained; a purchase made elsewhere is reported once', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const buy = () => k.run(['units', 'create', '--pool', pool!.poolId, '--period', '24h', '--count', '3', '--json']);
    const runs = await Promise.all(Array.from({ length: 4 }, buy));
    for (const r of runs) expect(r.exitCode, String(r.stderr)).toBe(0);
    expect((await k.state()).units).toHaveLength(12);
    expect(await reconcile(k)).toEqual([]);

    await buyElsewhere(k, pool!.poolId, '3h');
    const seen = await balance(k);
    expect(cents(seen)).toBe(cents((await k.state()).balanceUsd));
    // More parallel runs after it: their debits are explained, the one made elsewhere stays one gap.
    for (const r of await Promise.all(Array.from({ length: 3 }, buy))) expect(r.exitCode, String(r.stderr)).toBe(0);
    const gaps = await reconcile(k);
    expect(gaps).toHaveLength(1);
    expect(cents(gaps[0]!.unexplainedUsd)).toBe(cents(pool!.prices['3h']!));
    expect(gaps[0]!.balanceAfter).toBe(seen);
    expect(cents(gaps[0]!.balanceBefore - gaps[0]!.debitedUsd - gaps[0]!.unexplainedUsd)).toBe(cents(seen));
  }, 120_000);

  it('a purchase made elsewhere right after a batch was killed with kill -9, then the batch resumed: that purchase, once', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000, engineDelayMs: 150 });
    const k = kit;
    const [pool] = await pickPools(k);
    const args = ['units', 'create', '--pool', pool!.poolId, '--period', '12h', '--count', '10', '--json'];
    const child = k.run(args, { reject: false });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    await expect.poll(async () => (await k.state()).units.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
    child.kill('SIGKILL');
    await child;
    const key = keyOf(err)!;
    expect(key).toBeDefined();
    expect((await k.state()).units.length).toBeLessThan(10);

    await buyElsewhere(k, pool!.poolId, '3h');
    const seen = await balance(k);
    const rest = await k.run([...args, '--idempotency-key', key]);
    expect(rest.exitCode, String(rest.stderr)).toBe(0);
    const s = await k.state();
    expect(s.units).toHaveLength(11);

    const gaps = await reconcile(k);
    expect(gaps).toHaveLength(1);
    expect(cents(gaps[0]!.unexplainedUsd)).toBe(cents(pool!.prices['3h']!));
    expect(gaps[0]!.balanceAfter).toBe(seen);
    // What the readings cover adds up: the ledger's debits and that one purchase are all the balance lost.
    const spent = JSON.parse(String((await k.run(['spend', '--json'])).stdout)) as { priceUsd: number }[];
    expect(spent).toHaveLength(10);
    expect(spent.reduce((x, e) => x + cents(e.priceUsd), 0) + cents(pool!.prices['3h']!)).toBe(cents(1000 - s.balanceUsd));
  }, 120_000);

  it('--reconcile with --by is refused before anything is read', async () => {
    kit = await startKit({ balance: 1000 });
    const r = await kit.run(['spend', '--reconcile', '--by', 'day']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('--reconcile lists each balance change the ledger does not explain; it has no totals per day');
    expect(String(r.stdout)).toBe('');
    expect(kit.sb.requestLog()).toEqual([]);
  }, 60_000);
});
