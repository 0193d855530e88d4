// Renewing across pools when one pool's engine keeps failing upstream (refunded 503s): after three
// of its units in a row failed, its remaining units are not tried (nothing charged), while the
// units of the other pools are extended. Asserted on the requests proxyctl sent (its --debug
// trace), the per-unit results, the exit code and the sandbox's balance and units.
import { afterEach, expect, it } from 'vitest';
import { cents, type Kit, seedFleet, startKit, twoPools } from '../helpers/index.js';

const LANES = 4;
let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

it('a failing pool stops after 3 refunded 503s in a row; the other pool is renewed; exit 10', async () => {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const [bad, good] = twoPools(kit);
  kit.sb.world.engineFails = (poolId: string) => poolId === bad;
  const badRefs = seedFleet(
    kit,
    Array.from({ length: 12 }, () => ({ poolId: bad, hoursLeft: 5 })),
  );
  const goodRefs = seedFleet(kit, [
    { poolId: good, hoursLeft: 5 },
    { poolId: good, hoursLeft: 6 },
  ]);
  const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
  const r = await kit.run(['units', 'extend', '--expiring-within', '24', '--period', '3h', '--yes', '--json', '--debug']);
  expect(r.exitCode).toBe(10);
  const out = JSON.parse(String(r.stdout)) as { proxyRef: string; extended: boolean; error?: { code: string } }[];
  const byRef = new Map(out.map((u) => [u.proxyRef, u]));
  expect(goodRefs.map((ref) => byRef.get(ref)?.extended)).toEqual([true, true]);
  const skipped = badRefs.filter((ref) => byRef.get(ref)?.error?.code === 'pool_failing_upstream');
  const tried = badRefs.filter((ref) => byRef.get(ref)?.error?.code === 'upstream_unreachable');
  expect(skipped.length + tried.length).toBe(12);
  // Three failed in a row and at most the others already started: not one request for each of 12.
  expect(tried.length).toBeGreaterThanOrEqual(3);
  expect(tried.length).toBeLessThanOrEqual(3 + LANES - 1);
  const extends_ = String(r.stderr)
    .split('\n')
    .filter((l) => /→ POST \S+\/units\/PRX-\d+\/extend$/.test(l));
  expect(extends_).toHaveLength(tried.length + 2);
  expect(String(r.stderr)).toContain(`pool ${bad} is failing upstream`);
  const s = await kit.state();
  expect(cents(1000 - s.balanceUsd)).toBe(2 * cents(prices['3h']!));
  expect(
    s.units
      .filter((u) => u.lastExtended !== null)
      .map((u) => u.proxyRef)
      .sort(),
  ).toEqual([...goodRefs].sort());
});
