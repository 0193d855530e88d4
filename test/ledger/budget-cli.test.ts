// Budgets and policy as a reseller sets them (`config set`) and meets them: refused with exit 12
// before anything is charged, shown by --dry-run, holding across processes that run at once, and
// overlapping renewals that extend each unit once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function setup(opts: Parameters<typeof startKit>[0] = {}) {
  kit = await startKit({ balance: 1000, rateLimit: 10_000, ...opts });
  const [pool] = await pickPools(kit);
  return { k: kit, poolId: pool!.poolId, prices: pool!.prices };
}

/** How many recorded budget holds belong to runs whose lock has gone stale (killed). */
function deadHolds(k: Kit) {
  return async () => {
    const dir = join(k.home.configDir, 'data', 'ledger');
    const holdsFile = readdirSync(dir).find((f) => f.endsWith('.holds.json'));
    if (!holdsFile) return 0;
    const account = holdsFile.slice(0, -'.holds.json'.length);
    const { holds } = JSON.parse(readFileSync(join(dir, holdsFile), 'utf8')) as { holds: { id: string }[] };
    let dead = 0;
    for (const h of holds) if (!(await lockfile.check(join(dir, `${account}.hold-${h.id}`), { realpath: false, stale: 5000 }))) dead++;
    return dead;
  };
}

async function set(k: Kit, key: string, value: string) {
  const r = await k.run(['config', 'set', key, value]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
}

describe('budgets and policy (config set)', () => {
  it('refuses with exit 12 before any charge: a period or country not allowed, more than max-spend-per-run', async () => {
    const { k, poolId, prices } = await setup();
    await set(k, 'allowed-periods', '7d,30d');
    let r = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(r.exitCode).toBe(12);
    expect(String(r.stderr)).toContain("period 24h is not allowed by this profile's policy (allowed-periods: 7d, 30d)");
    await k.run(['config', 'unset', 'allowed-periods']);

    await set(k, 'allowed-countries', 'ZZ');
    r = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(r.exitCode).toBe(12);
    expect(String(r.stderr)).toContain(`country ${poolId.slice(0, 2)} is not allowed`);
    await k.run(['config', 'unset', 'allowed-countries']);

    await set(k, 'max-spend-per-run', (prices['24h']! * 2).toFixed(2));
    r = await k.run(['units', 'create', '--pool', poolId, '--period', '24h', '--count', '3']);
    expect(r.exitCode).toBe(12);
    expect(String(r.stderr)).toContain('more than max-spend-per-run');
    // --dry-run shows the verdict and ends with the same exit code.
    r = await k.run(['units', 'create', '--pool', poolId, '--period', '24h', '--count', '3', '--dry-run', '--json']);
    expect(r.exitCode).toBe(12);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ dryRun: true, withinBudget: false, count: 3 });
    r = await k.run(['units', 'create', '--pool', poolId, '--period', '24h', '--count', '2', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ withinBudget: true, budget: 'within the budget and policy' });

    const s = await k.state();
    expect(s.units).toHaveLength(0);
    expect(s.balanceUsd).toBe(1000);
    expect(String((await k.run(['config', 'get', 'max-spend-per-run'])).stdout)).toBe(`${Number((prices['24h']! * 2).toFixed(2))}`);
    const bad = await k.run(['config', 'set', 'max-spend-per-day', 'lots']);
    expect(bad.exitCode).toBe(2);
  }, 120_000);

  it('a daily budget holds across two processes that each fit it alone but not together', async () => {
    const { k, poolId, prices } = await setup({ engineDelayMs: 200 });
    const price = prices['24h']!;
    await set(k, 'max-spend-per-day', (price * 3).toFixed(2));
    const args = ['units', 'create', '--pool', poolId, '--period', '24h', '--count', '2', '--json'];
    const [a, b] = await Promise.all([k.run(args), k.run(args)]);
    const codes = [a.exitCode, b.exitCode].sort();
    expect(codes).toEqual([0, 12]);
    const refused = a.exitCode === 12 ? a : b;
    expect(String(refused.stderr)).toMatch(/held by other runs still at work|was spent in the last 24 hours/);
    const s = await k.state();
    expect(s.units).toHaveLength(2);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 2);
    // What was spent counts for the rest of the day: one more unit fits, a second does not.
    expect((await k.run(['units', 'create', '--pool', poolId, '--period', '24h'])).exitCode).toBe(0);
    const over = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(over.exitCode).toBe(12);
    expect(String(over.stderr)).toContain(`${(price * 3).toFixed(2)} USD was spent in the last 24 hours`);
  }, 120_000);

  it('a run killed while holding the budget blocks nobody, and what it may have bought still counts', async () => {
    const { k, poolId, prices } = await setup();
    const price = prices['24h']!;
    await set(k, 'max-spend-per-day', (price * 3).toFixed(2));
    k.sb.world.engineDelay = () => new Promise((r) => setTimeout(r, 1500));
    const victim = k.run(['units', 'create', '--pool', poolId, '--period', '24h', '--count', '2'], { reject: false });
    await expect
      .poll(async () => ((await k.state()) as { inFlightPurchases?: number }).inFlightPurchases ?? 0, { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(0);
    victim.kill('SIGKILL');
    await victim;
    k.sb.world.engineDelay = () => Promise.resolve();
    // The lock is not stuck: a run that fits beside the dead run's hold goes ahead at once.
    const next = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(next.exitCode, String(next.stderr)).toBe(0);
    // Once its hold's lock has gone stale (the run is known dead), one more would go past the
    // budget if the dead run's purchases went through: refused, saying why.
    await expect.poll(deadHolds(k), { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
    const over = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(over.exitCode).toBe(12);
    expect(String(over.stderr)).toContain('held by runs that were killed (their purchases may have gone through)');
    await expect
      .poll(async () => ((await k.state()) as { inFlightPurchases?: number }).inFlightPurchases ?? 0, { timeout: 30_000 })
      .toBe(0);
    expect(cents(1000 - (await k.state()).balanceUsd)).toBeLessThanOrEqual(cents(price * 3));
  }, 120_000);

  it('two overlapping renewals extend each unit once; the second says which it left to the first', async () => {
    const { k, poolId, prices } = await setup();
    const made = await k.run(['units', 'create', '--pool', poolId, '--period', '3h', '--count', '6', '--json']);
    expect(made.exitCode).toBe(0);
    // The first renewal's extensions wait at the engine until the second has run its course.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    k.sb.world.engineDelay = () => gate;
    const renew = ['units', 'extend', '--expiring-within', '24', '--period', '24h', '--yes', '--json'];
    const first = k.run(renew);
    await expect
      .poll(async () => ((await k.state()) as { inFlightPurchases?: number }).inFlightPurchases ?? 0, { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(0);
    const second = await k.run(renew);
    expect(second.exitCode, String(second.stderr)).toBe(0);
    expect(JSON.parse(String(second.stdout))).toEqual([]);
    expect(String(second.stderr)).toContain('being extended by another proxyctl run at this moment; left to it, not extended again');
    open();
    const one = await first;
    expect(one.exitCode, String(one.stderr)).toBe(0);
    expect(JSON.parse(String(one.stdout))).toHaveLength(6);
    const s = await k.state();
    for (const u of s.units) expect(cents(u.pricePaid), u.proxyRef).toBe(cents(prices['3h']!) + cents(prices['24h']!));
    const spent = JSON.parse(String((await k.run(['spend', '--json'])).stdout)) as { priceUsd: number }[];
    expect(spent).toHaveLength(12);
    expect(spent.reduce((x, e) => x + cents(e.priceUsd), 0)).toBe(cents(1000 - s.balanceUsd));
  }, 120_000);

  it('--fit extends the soonest-expiring units --max-spend pays for and names the ones left out', async () => {
    const { k, poolId, prices } = await setup();
    const refs: string[] = [];
    for (const period of ['24h', '3h', '12h']) {
      const r = await k.run(['units', 'create', '--pool', poolId, '--period', period, '--json']);
      refs.push((JSON.parse(String(r.stdout)) as { proxyRef: string }).proxyRef);
    }
    const [day, three, twelve] = refs;
    const price = prices['7d']!;
    const r = await k.run([
      'units',
      'extend',
      '--expiring-within',
      '48',
      '--period',
      '7d',
      '--max-spend',
      (price * 2).toFixed(2),
      '--fit',
      '--yes',
      '--json',
    ]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect((JSON.parse(String(r.stdout)) as { proxyRef: string }[]).map((x) => x.proxyRef).sort()).toEqual([three, twelve].sort());
    expect(String(r.stderr)).toContain(`left out (latest expiry): ${day}`);
    // Without --fit, a cap below the total is refused (exit 2, nothing charged).
    const before = (await k.state()).balanceUsd;
    const refused = await k.run(['units', 'extend', day!, '--period', '7d', '--max-spend', (price / 2).toFixed(2)]);
    expect(refused.exitCode).toBe(2);
    expect((await k.state()).balanceUsd).toBe(before);
  }, 120_000);
});
