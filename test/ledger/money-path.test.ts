// One money path, tried the way a reseller runs it: a cron renewal with --fit under the profile's
// budgets, the policy on every path that charges or moves a unit, a budget changed while the agent
// server runs, and a purchase resumed after the API has forgotten its key. Every case is checked
// against the sandbox's own record of what was charged.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';
import { ok, startMcp, type McpSession } from '../mcp/mcp-client.js';

let kit: Kit | undefined;
let mcp: McpSession | undefined;
afterEach(async () => {
  await mcp?.close();
  await kit?.close();
  mcp = undefined;
  kit = undefined;
});

async function setup() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const pools = await pickPools(kit);
  return { k: kit, pools, poolId: pools[0]!.poolId, prices: pools[0]!.prices };
}

async function run(k: Kit, args: string[], code = 0) {
  const r = await k.run(args);
  expect(r.exitCode, `${args.join(' ')}: ${String(r.stderr)}`).toBe(code);
  return r;
}

async function buy(k: Kit, poolId: string, count: number): Promise<string[]> {
  const r = await run(k, ['units', 'create', '--pool', poolId, '--period', '24h', '--count', String(count), '--yes', '--json']);
  const out = JSON.parse(String(r.stdout)) as { proxyRef: string } | { proxyRef: string }[];
  return (Array.isArray(out) ? out : [out]).map((u) => u.proxyRef);
}

const extendedRefs = (stdout: unknown) => (JSON.parse(String(stdout)) as { proxyRef: string; extended: boolean }[]).map((r) => r.proxyRef);

describe('--fit fits under the least of its bounds and says which', () => {
  it('a cron renewal with --max-spend 100 --fit renews what the daily budget has left, instead of nothing', async () => {
    const { k, poolId, prices } = await setup();
    const refs = await buy(k, poolId, 4);
    const spent = cents(prices['24h']!) * 4;
    const ext = cents(prices['7d']!);
    // Room for two and a half 7d extensions after today's purchases.
    await run(k, ['config', 'set', 'max-spend-per-day', ((spent + ext * 2.5) / 100).toFixed(2)]);
    const before = await k.state();
    const r = await run(k, [
      'units',
      'extend',
      '--expiring-within',
      '2d',
      '--period',
      '7d',
      '--max-spend',
      '100',
      '--fit',
      '--yes',
      '--json',
    ]);
    const renewed = extendedRefs(r.stdout);
    expect(renewed).toHaveLength(2);
    expect(refs).toEqual(expect.arrayContaining(renewed));
    expect(String(r.stderr)).toMatch(/the daily budget \([\d.]+ USD left of max-spend-per-day [\d.]+ USD\) pays for 2 of the 4 units/);
    const after = await k.state();
    expect(cents(after.balanceUsd)).toBe(cents(before.balanceUsd) - ext * 2);
    // What is left of the day now pays for no further extension: refused, nothing charged.
    const again = await k.run(['units', 'extend', '--expiring-within', '2d', '--period', '7d', '--max-spend', '100', '--fit', '--yes']);
    expect(again.exitCode).toBe(2);
    expect(String(again.stderr)).toContain('does not pay for one 7d extension');
    expect(cents((await k.state()).balanceUsd)).toBe(cents(after.balanceUsd));
  }, 120_000);

  it('max-spend-per-run is a bound too, and --fit works with a profile budget alone', async () => {
    const { k, poolId, prices } = await setup();
    await buy(k, poolId, 3);
    const ext = cents(prices['7d']!);
    await run(k, ['config', 'set', 'max-spend-per-run', ((ext * 2) / 100).toFixed(2)]);
    const before = await k.state();
    const r = await run(k, ['units', 'extend', '--expiring-within', '2d', '--period', '7d', '--fit', '--yes', '--json']);
    expect(extendedRefs(r.stdout)).toHaveLength(2);
    expect(String(r.stderr)).toMatch(/max-spend-per-run [\d.]+ USD pays for 2 of the 3 units/);
    expect(cents((await k.state()).balanceUsd)).toBe(cents(before.balanceUsd) - ext * 2);
    // Without --max-spend and without any budget, --fit has nothing to fit under: exit 2, no request.
    await run(k, ['config', 'unset', 'max-spend-per-run']);
    const bare = await k.run(['units', 'extend', '--expiring-within', '2d', '--period', '7d', '--fit', '--yes']);
    expect(bare.exitCode).toBe(2);
    expect(String(bare.stderr)).toContain('--fit fits the batch under --max-spend');
  }, 120_000);
});

describe('the policy holds on every path that charges or moves a unit', () => {
  it('units extend: allowed-countries and allowed-periods refuse with exit 12, as create does, nothing charged', async () => {
    const { k, poolId } = await setup();
    const [ref] = await buy(k, poolId, 1);
    const before = await k.state();
    await run(k, ['config', 'set', 'allowed-countries', 'ZZ']);
    let r = await k.run(['units', 'extend', ref!, '--period', '7d', '--yes']);
    expect(r.exitCode).toBe(12);
    expect(String(r.stderr)).toContain(`country ${poolId.slice(0, 2)} is not allowed by this profile's policy (allowed-countries: ZZ)`);
    r = await k.run(['units', 'extend', '--expiring-within', '2d', '--period', '7d', '--yes']);
    expect(r.exitCode).toBe(12);
    await run(k, ['config', 'unset', 'allowed-countries']);
    await run(k, ['config', 'set', 'allowed-periods', '30d']);
    r = await k.run(['units', 'extend', ref!, '--period', '7d', '--yes']);
    expect(r.exitCode).toBe(12);
    expect(String(r.stderr)).toContain("period 7d is not allowed by this profile's policy (allowed-periods: 30d)");
    const after = await k.state();
    expect(after.balanceUsd).toBe(before.balanceUsd);
    expect(after.units[0]!.expiresAt).toBe(before.units[0]!.expiresAt);
  }, 120_000);

  it('units swap: a pool in a country the policy leaves out is refused with exit 12 and the unit stays', async () => {
    const { k, pools, poolId } = await setup();
    const home = poolId.slice(0, 2);
    const abroad = pools.find((p) => !p.poolId.startsWith(home))!;
    const [ref] = await buy(k, poolId, 1);
    await run(k, ['config', 'set', 'allowed-countries', home]);
    const r = await k.run(['units', 'swap', ref!, '--pool', abroad.poolId]);
    expect(r.exitCode).toBe(12);
    expect(String(r.stderr)).toContain(`country ${abroad.poolId.slice(0, 2)} is not allowed by this profile's policy`);
    expect((await k.state()).units[0]!.poolId).toBe(poolId);
    // The same move, allowed, goes through.
    await run(k, ['config', 'set', 'allowed-countries', `${home},${abroad.poolId.slice(0, 2)}`]);
    await run(k, ['units', 'swap', ref!, '--pool', abroad.poolId]);
    expect((await k.state()).units[0]!.poolId).toBe(abroad.poolId);
  }, 120_000);
});

describe('proxyctl mcp reads the profile at the moment it charges', () => {
  it('a daily budget or allowed-countries set while the server runs stops its next purchase', async () => {
    const { k, poolId, prices } = await setup();
    mcp = await startMcp(k, ['--allow-spend']);
    const q1 = ok(await mcp.call('quote_create', { pool: poolId, period: '24h', count: 1 }));
    ok(await mcp.call('create_units', { quoteId: q1.quoteId }));
    // The user stops the agent's spending from another terminal.
    await run(k, ['config', 'set', 'max-spend-per-day', prices['24h']!.toFixed(2)]);
    const q2 = ok(await mcp.call('quote_create', { pool: poolId, period: '24h', count: 1 }));
    expect(q2.withinBudget).toBe(false);
    const refused = await mcp.call('create_units', { quoteId: q2.quoteId });
    expect(refused.ok ? undefined : refused.error).toMatchObject({ code: 'budget_exceeded', exitCode: 12 });
    expect(refused.ok ? '' : refused.error.message).toContain('max-spend-per-day');
    await run(k, ['config', 'unset', 'max-spend-per-day']);
    await run(k, ['config', 'set', 'allowed-countries', 'ZZ']);
    const q3 = ok(await mcp.call('quote_create', { pool: poolId, period: '24h', count: 1 }));
    const also = await mcp.call('create_units', { quoteId: q3.quoteId });
    expect(also.ok ? undefined : also.error).toMatchObject({ code: 'country_not_allowed', exitCode: 12 });
    const s = await k.state();
    expect(s.units).toHaveLength(1);
    expect(cents(s.balanceUsd)).toBe(cents(1000) - cents(prices['24h']!));
  }, 120_000);
});

describe('a purchase record never re-sends a key the API has forgotten', () => {
  it('units create resumed after the API clock passed 24 h reads what the key bought and buys nothing', async () => {
    const { k, poolId, prices } = await setup();
    const key = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
    const args = ['units', 'create', '--pool', poolId, '--period', '7d', '--count', '2', '--idempotency-key', key, '--yes', '--json'];
    const first = JSON.parse(String((await run(k, args)).stdout)) as { proxyRef: string }[];
    await k.control('/advance', { seconds: 25 * 3600 });
    const again = JSON.parse(String((await run(k, args)).stdout)) as { proxyRef: string }[];
    expect(again.map((u) => u.proxyRef)).toEqual(first.map((u) => u.proxyRef));
    const s = await k.state();
    expect(s.units).toHaveLength(2);
    expect(cents(s.balanceUsd)).toBe(cents(1000) - cents(prices['7d']!) * 2);
  }, 120_000);

  it('create_units paid again after the API forgot the quote key replays by ref, charges 0, buys nothing', async () => {
    const { k, poolId, prices } = await setup();
    mcp = await startMcp(k, ['--allow-spend']);
    const q = ok(await mcp.call('quote_create', { pool: poolId, period: '7d', count: 2 }));
    const paid = ok(await mcp.call('create_units', { quoteId: q.quoteId }));
    expect(paid).toMatchObject({ succeeded: 2, replayed: 0 });
    await k.control('/advance', { seconds: 25 * 3600 });
    const again = ok(await mcp.call('create_units', { quoteId: q.quoteId }));
    expect(again).toMatchObject({ succeeded: 2, replayed: 2, chargedUsd: 0 });
    const s = await k.state();
    expect(s.units).toHaveLength(2);
    expect(cents(s.balanceUsd)).toBe(cents(1000) - cents(prices['7d']!) * 2);
  }, 120_000);
});
