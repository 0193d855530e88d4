// `units extend --expiring-within HOURS`: renew what is about to expire, end to end on the sandbox.
// Each test checks the server's state afterwards: exactly the selected units gained one period,
// the others did not move, and the balance went down by exactly one price per extended unit.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, proxyctl, seedFleet, startKit, tempHome, twoPools } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const HOUR = 3_600_000;
const RENEW_24H = ['units', 'extend', '--expiring-within', '24', '--period', '7d'];

async function fleet(balance = 1000) {
  kit = await startKit({ balance });
  const [a, b] = twoPools(kit);
  const refs = seedFleet(kit, [
    { poolId: a, hoursLeft: 2, description: 'acme-1' }, // 0 due
    { poolId: a, hoursLeft: 20, description: 'globex' }, // 1 due
    { poolId: a, hoursLeft: 30, description: 'acme-2' }, // 2 not due
    { poolId: b, hoursLeft: 5, description: 'ACME-3' }, // 3 due
    { poolId: b, hoursLeft: 100, description: 'acme-4' }, // 4 not due
    { poolId: a, hoursLeft: -1, description: 'acme-5' }, // 5 expired
    { poolId: b, hoursLeft: 3, description: 'acme-6', released: true }, // 6 released
  ]);
  const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
  const expiries = new Map((await kit.state()).units.map((u) => [u.proxyRef, Date.parse(u.expiresAt)]));
  return { kit, a, b, refs, price: prices['7d']!, expiries };
}

/** How many hours each unit gained since `before`, by ref. */
async function gained(k: Kit, before: Map<string, number>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const u of (await k.state()).units) out[u.proxyRef] = (Date.parse(u.expiresAt) - before.get(u.proxyRef)!) / HOUR;
  return out;
}

const only = (refs: string[], extended: number[], hours = 168) =>
  Object.fromEntries(refs.map((r, i) => [r, extended.includes(i) ? hours : 0]));

describe('units extend --expiring-within', () => {
  it('extends exactly the active units expiring within HOURS, every pool, once each', async () => {
    const { kit, refs, price, expiries } = await fleet();
    const r = await kit.run([...RENEW_24H, '--yes', '--json']);
    expect(r.stderr).toContain(`3 × ${price.toFixed(2)} USD`);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(String(r.stdout)) as { proxyRef: string; extended: boolean }[];
    expect(out.map((u) => u.proxyRef).sort()).toEqual([refs[0], refs[1], refs[3]].sort());
    expect(out.every((u) => u.extended)).toBe(true);
    expect(await gained(kit, expiries)).toEqual(only(refs, [0, 1, 3]));
    expect(cents(1000 - (await kit.state()).balanceUsd)).toBe(3 * cents(price));
  });

  it('--pool and --description-contains (any case) narrow the selection', async () => {
    const { kit, b, refs, price, expiries } = await fleet();
    const r = await kit.run([...RENEW_24H, '--pool', b, '--description-contains', 'acme', '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual([{ proxyRef: refs[3], expiresAt: expect.any(String), extended: true }]);
    expect(await gained(kit, expiries)).toEqual(only(refs, [3]));
    expect(cents(1000 - (await kit.state()).balanceUsd)).toBe(cents(price));

    const tagged = await kit.run([...RENEW_24H, '--description-contains', 'ACME', '--yes', '--json']);
    expect(tagged.exitCode).toBe(0);
    // refs[3] now expires in 5 h + 7 d, so only refs[0] is still due among the acme units.
    expect(JSON.parse(String(tagged.stdout)).map((u: { proxyRef: string }) => u.proxyRef)).toEqual([refs[0]]);
  });

  it('answers lost after the server applied them are settled by re-reading: each unit extended and debited once', async () => {
    const { kit, refs, price, expiries } = await fleet();
    await kit.control('/faults', { dropAfterCommit: { op: 'extend', count: 2 } });
    const r = await kit.run([...RENEW_24H, '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(String(r.stdout)) as { proxyRef: string; extended: boolean }[];
    expect(out.map((u) => [u.proxyRef, u.extended]).sort()).toEqual([refs[0], refs[1], refs[3]].sort().map((ref) => [ref, true]));
    expect(await gained(kit, expiries)).toEqual(only(refs, [0, 1, 3]));
    expect(cents(1000 - (await kit.state()).balanceUsd)).toBe(3 * cents(price));
  });

  it('a total above --max-spend is exit 2 and nothing is extended', async () => {
    const { kit, refs, price, expiries } = await fleet();
    const max = (3 * cents(price) - 1) / 100;
    const r = await kit.run([...RENEW_24H, '--max-spend', max.toFixed(2), '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`more than --max-spend ${max.toFixed(2)} USD; nothing was charged`);
    expect(await gained(kit, expiries)).toEqual(only(refs, []));
    expect((await kit.state()).balanceUsd).toBe(1000);
    // Named units are held to --max-spend too.
    const named = await kit.run(['units', 'extend', refs[2]!, '--period', '7d', '--max-spend', '0.01']);
    expect(named.exitCode).toBe(2);
    expect(await gained(kit, expiries)).toEqual(only(refs, []));

    const enough = await kit.run([...RENEW_24H, '--max-spend', ((3 * cents(price)) / 100).toFixed(2), '--yes']);
    expect(enough.exitCode).toBe(0);
    expect(await gained(kit, expiries)).toEqual(only(refs, [0, 1, 3]));
  });

  it('a total above the balance is exit 6 and nothing is extended', async () => {
    kit = await startKit({ balance: 1 });
    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const balance = (2 * cents(prices['7d']!) - 1) / 100;
    await kit.control('/balance', { balanceUsd: balance });
    const refs = seedFleet(kit, [{ hoursLeft: 1 }, { hoursLeft: 2 }]);
    const r = await kit.run([...RENEW_24H, '--yes']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('nothing was bought');
    const s = await kit.state();
    expect(s.balanceUsd).toBe(balance);
    expect(s.units.filter((u) => refs.includes(u.proxyRef)).map((u) => u.lastExtended)).toEqual([null, null]);
  });

  it('without a terminal it needs --yes: exit 2 before any request', async () => {
    // A base URL nothing listens on: any request would fail to connect (exit 9), not exit 2.
    const home = tempHome();
    try {
      const env = { PROXYCTL_BASE_URL: 'http://127.0.0.1:9', PROXYCTL_API_KEY: 'sk_test_0000000000000000' };
      const r = await proxyctl([...RENEW_24H], { home, env });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('refusing to extend units expiring within 24 h without confirmation');
      expect(r.stderr).toContain('--yes');
      for (const bad of [
        ['--expiring-within', 'soon', '--period', '7d', '--yes'],
        ['--expiring-within', '0', '--period', '7d', '--yes'],
        ['--expiring-within', '24', '--period', '7d', '--max-spend', '-5', '--yes'],
        ['--expiring-within', '24', '--period', '7d', '--max-spend', 'lots', '--yes'],
        ['--expiring-within', '24', '--period', '9d', '--yes'],
        ['--expiring-within', '24', '--yes'],
        ['PRX-1', '--expiring-within', '24', '--period', '7d', '--yes'],
        ['PRX-1', '--period', '7d', '--pool', 'US-1'],
        ['--period', '7d'],
      ]) {
        const b = await proxyctl(['units', 'extend', ...bad], { home, env });
        expect({ bad, code: b.exitCode }).toEqual({ bad, code: 2 });
      }
    } finally {
      home.cleanup();
    }
  });

  it('no unit due: says so, exit 0, an empty list for scripts, nothing charged', async () => {
    const { kit, refs, expiries } = await fleet();
    const r = await kit.run(['units', 'extend', '--expiring-within', '1', '--period', '7d', '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('[]');
    expect(r.stderr).toContain('No active units expire within 1 h; nothing was extended.');
    expect(await gained(kit, expiries)).toEqual(only(refs, []));
    expect((await kit.state()).balanceUsd).toBe(1000);
  });

  it('--dry-run shows the quote for the selection and extends nothing (no --yes needed)', async () => {
    const { kit, refs, price, expiries } = await fleet();
    const r = await kit.run([...RENEW_24H, '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const q = JSON.parse(String(r.stdout));
    expect(q).toMatchObject({
      dryRun: true,
      period: '7d',
      count: 3,
      unitPrice: price,
      total: (3 * cents(price)) / 100,
      balanceUsd: 1000,
      affordable: true,
    });
    expect([...q.refs].sort()).toEqual([refs[0], refs[1], refs[3]].sort());
    expect(await gained(kit, expiries)).toEqual(only(refs, []));
  });

  it('one failure among several is exit 10 with per-item results; only the extended are charged', async () => {
    const { kit, refs, price, expiries } = await fleet();
    await kit.control('/faults', { failNext: { op: 'extend', status: 403, count: 1 } });
    const r = await kit.run([...RENEW_24H, '--yes', '--json']);
    expect(r.exitCode).toBe(10);
    const out = JSON.parse(String(r.stdout)) as { proxyRef: string; extended: boolean; error?: { code: string } }[];
    expect(out).toHaveLength(3);
    const failed = out.filter((u) => !u.extended);
    expect(failed).toHaveLength(1);
    const g = await gained(kit, expiries);
    expect(g[failed[0]!.proxyRef]).toBe(0);
    expect([refs[0]!, refs[1]!, refs[3]!].filter((ref) => g[ref] === 168)).toHaveLength(2);
    expect(cents(1000 - (await kit.state()).balanceUsd)).toBe(2 * cents(price));
  });
});
