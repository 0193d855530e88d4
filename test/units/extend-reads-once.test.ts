// `units extend REF…` reads each named unit once per run: with allowed-countries set, the read that
// finds its pool is the one the extension compares with (not a second GET), and --fit orders the
// units by the expiries already read. Counted in the sandbox's own request log; the charges and the
// units' expiries are what they were with the extra reads.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function setup() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const pools = await pickPools(kit);
  const poolId = pools[0]!.poolId;
  // Three units expiring in 48 h, 10 h and 30 h.
  const refs = seedFleet(kit, [
    { poolId, hoursLeft: 48 },
    { poolId, hoursLeft: 10 },
    { poolId, hoursLeft: 30 },
  ]);
  return { k: kit, poolId, refs, price: pools[0]!.prices['7d']! };
}

async function run(k: Kit, args: string[]) {
  const r = await k.run(args);
  expect(r.exitCode, `${args.join(' ')}: ${String(r.stderr)}`).toBe(0);
  return r;
}

/** GET /units/{ref} per ref, in the requests the sandbox received from `from` on. */
function unitReads(k: Kit, from: number, refs: readonly string[]): Record<string, number> {
  const log = k.sb.requestLog().slice(from);
  return Object.fromEntries(
    refs.map((ref) => [ref, log.filter((r) => r.method === 'GET' && r.url.split('?')[0] === `/api/reseller/v1/units/${ref}`).length]),
  );
}

const WEEK_MS = 7 * 86_400_000;

describe('units extend reads each named unit once', () => {
  it('with allowed-countries set: one GET per unit, all three extended and charged once', async () => {
    const { k, poolId, refs, price } = await setup();
    await run(k, ['config', 'set', 'allowed-countries', poolId.slice(0, 2)]);
    const before = await k.state();
    const from = k.sb.requestLog().length;
    const r = await run(k, ['units', 'extend', ...refs, '--period', '7d', '--yes', '--json']);
    expect(unitReads(k, from, refs)).toEqual(Object.fromEntries(refs.map((ref) => [ref, 1])));
    const out = JSON.parse(String(r.stdout)) as { proxyRef: string; extended: boolean }[];
    expect(out.map((u) => [u.proxyRef, u.extended])).toEqual(refs.map((ref) => [ref, true]));
    const after = await k.state();
    expect(cents(before.balanceUsd) - cents(after.balanceUsd)).toBe(3 * cents(price));
    for (const ref of refs) {
      const was = Date.parse(before.units.find((u) => u.proxyRef === ref)!.expiresAt);
      expect(Date.parse(after.units.find((u) => u.proxyRef === ref)!.expiresAt)).toBe(was + WEEK_MS);
    }
  }, 120_000);

  it.each([
    ['with allowed-countries set', true],
    ['without a country rule', false],
  ])(
    '--fit %s: one GET per unit, the two soonest-expiring extended, the third left out',
    async (_, countries) => {
      const { k, poolId, refs, price } = await setup();
      if (countries) await run(k, ['config', 'set', 'allowed-countries', poolId.slice(0, 2)]);
      const before = await k.state();
      const from = k.sb.requestLog().length;
      const maxSpend = ((cents(price) * 2 + 1) / 100).toFixed(2);
      const r = await run(k, ['units', 'extend', ...refs, '--period', '7d', '--max-spend', maxSpend, '--fit', '--yes', '--json']);
      expect(unitReads(k, from, refs)).toEqual(Object.fromEntries(refs.map((ref) => [ref, 1])));
      const [latest, soonest, middle] = refs as [string, string, string];
      const out = JSON.parse(String(r.stdout)) as { proxyRef: string; extended: boolean }[];
      expect(out.map((u) => [u.proxyRef, u.extended])).toEqual([
        [soonest, true],
        [middle, true],
      ]);
      expect(String(r.stderr)).toContain(`left out (latest expiry): ${latest}`);
      const after = await k.state();
      expect(cents(before.balanceUsd) - cents(after.balanceUsd)).toBe(2 * cents(price));
      const expiry = (s: typeof before, ref: string) => Date.parse(s.units.find((u) => u.proxyRef === ref)!.expiresAt);
      expect(expiry(after, soonest)).toBe(expiry(before, soonest) + WEEK_MS);
      expect(expiry(after, middle)).toBe(expiry(before, middle) + WEEK_MS);
      expect(expiry(after, latest)).toBe(expiry(before, latest));
    },
    120_000,
  );
});
