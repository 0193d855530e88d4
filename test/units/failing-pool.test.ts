// A batch on a pool whose provisioning engine keeps failing (refunded 503s) stops after three
// items in a row failed, instead of sending 4 requests for each of 30 items. Asserted on the
// requests proxyctl sent (its --debug trace), the exit code and the sandbox's balance and units.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';

const LANES = 4;
const ATTEMPTS_PER_ITEM = 4;
let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** The engine succeeds for the first `okFirst` purchases, then fails upstream for good. */
async function setup(okFirst: number) {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const pools = await pickPools(kit);
  let calls = 0;
  kit.sb.world.engineFails = () => ++calls > okFirst;
  return { kit, pool: pools[0]!.poolId, price: pools[0]!.prices['3h']! };
}

const posts = (stderr: string) => stderr.split('\n').filter((l) => /→ POST \S+\/units$/.test(l)).length;

describe('a pool that keeps failing upstream', () => {
  it('nothing bought: stops after 3 failed items, says nothing was charged, exit 9', async () => {
    const { kit, pool } = await setup(0);
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '30', '--json', '--debug']);
    const stderr = String(r.stderr);
    expect(r.exitCode).toBe(9);
    expect(stderr).toMatch(new RegExp(`pool ${pool} is failing upstream; stopped; nothing charged for the \\d+ failed items`));
    // Three failed items and at most the others already started: not 4 requests × 30 items.
    expect(posts(stderr)).toBeGreaterThanOrEqual(3);
    expect(posts(stderr)).toBeLessThanOrEqual((3 + LANES) * ATTEMPTS_PER_ITEM);
    expect(stderr).toMatch(/\d+ not started/);
    expect(r.stdout).not.toContain('proxyRef');
    const s = await kit.state();
    expect(s.units).toEqual([]);
    expect(s.balanceUsd).toBe(1000);
  }, 60_000);

  it('some bought first: those are printed and paid for, the failed ones are not charged, exit 10', async () => {
    const { kit, pool, price } = await setup(2);
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '30', '--json', '--debug']);
    expect(r.exitCode).toBe(10);
    const stderr = String(r.stderr);
    const failed = Number(/nothing charged for the (\d+) failed items/.exec(stderr)?.[1]);
    expect(failed).toBeGreaterThanOrEqual(3);
    expect(stderr).toContain(`pool ${pool} is failing upstream; stopped`);
    expect(posts(stderr)).toBeLessThanOrEqual(2 + (3 + LANES) * ATTEMPTS_PER_ITEM);
    const rows = JSON.parse(String(r.stdout)) as { proxyRef?: string; error?: { code: string } }[];
    const bought = rows
      .filter((x) => x.proxyRef)
      .map((x) => x.proxyRef)
      .sort();
    expect(bought).toHaveLength(2);
    expect(rows.filter((x) => x.error?.code === 'upstream_unreachable')).toHaveLength(failed);
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual(bought);
    expect(cents(1000 - s.balanceUsd)).toBe(2 * cents(price));
  }, 60_000);
});
