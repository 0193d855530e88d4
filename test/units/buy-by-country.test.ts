// `units create --country CC [--state S] [--provider P]` against the sandbox: the cheapest
// available pool that matches, for the period bought, said before buying, then the one purchase
// path (the quote, the balance check, the charge); `--pool` stays exact and the two together are
// exit 2 before any request. In a terminal without --period: the period, then the pick, then the
// protocol and the confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPrompts, cents, inTerminal, type Kit, KEY, startKit } from '../helpers/index.js';

let kit: Kit;
let list: Record<string, number>;
beforeAll(async () => {
  kit = await startKit({ balance: 200 });
  const w = kit.sb.world;
  list = { ...w.prices };
  // Sandbox-only prices of their own: US-15 and US-12 tie as the cheapest for 7d (US-12 has the
  // lower id), US-13 would be cheaper still but is not available.
  w.poolById.get('US-15')!.prices = { ...w.prices, '7d': 10 };
  w.poolById.get('US-12')!.prices = { ...w.prices, '7d': 10 };
  w.poolById.get('US-13')!.prices = { ...w.prices, '7d': 1 };
  w.poolById.get('US-19')!.prices = { ...w.prices, '3h': 0.5 };
  expect(w.poolById.get('US-13')!.available).toBe(false);
});
afterAll(() => kit.close());

const usd = (n: number) => `${n.toFixed(2)} USD`;

describe('buying by country', () => {
  it('buys from the cheapest available pool for the period and says which first', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'create', '--country', 'us', '--period', '7d', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toContain(`buying from US-12, the cheapest of 7 available pools in US (${usd(10)} for 7d)`);
    expect(String(r.stderr).indexOf('buying from')).toBeLessThan(String(r.stderr).indexOf('charged'));
    const unit = JSON.parse(String(r.stdout));
    expect(unit.poolId).toBe('US-12');
    const after = await kit.state();
    expect(after.units.map((u) => u.poolId)).toEqual([...before.units.map((u) => u.poolId), 'US-12']);
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(cents(10));
  });

  it('another period has other prices: US-19 for 3h', async () => {
    const r = await kit.run(['units', 'create', '--country', 'US', '--period', '3h', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ dryRun: true, poolId: 'US-19', unitPrice: 0.5 });
    expect(String(r.stderr)).toContain('nothing was bought');
  });

  it('--state and --provider narrow the choice (any case, as the API filters)', async () => {
    const r = await kit.run([
      'units',
      'create',
      '--country',
      'US',
      '--state',
      'California',
      '--provider',
      't-mobile',
      '--period',
      '7d',
      '--dry-run',
    ]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toContain(
      `buying from US-15, the one available pool in US, state California, provider t-mobile (${usd(10)} for 7d)`,
    );
    const texas = await kit.run(['units', 'create', '--country', 'US', '--state', 'texas', '--period', '24h', '--dry-run', '--json']);
    // US-12 and US-16 are in Texas at the list's 24h price: the lower id.
    expect(JSON.parse(String(texas.stdout))).toMatchObject({ poolId: 'US-12', unitPrice: list['24h'] });
  });

  it('no pool matches: exit 5, nothing bought; a country without pools names the nearest', async () => {
    const before = await kit.state();
    const none = await kit.run(['units', 'create', '--country', 'US', '--state', 'nowhere', '--period', '7d', '--yes']);
    expect(none.exitCode).toBe(5);
    expect(String(none.stderr)).toContain('no available pool in US, state nowhere; nothing was bought (code no_pool_matches');
    const unknown = await kit.run(['units', 'create', '--country', 'UK', '--period', '7d', '--yes']);
    expect(unknown.exitCode).toBe(5);
    expect(String(unknown.stderr)).toContain('did you mean GB');
    const after = await kit.state();
    expect(after.units).toHaveLength(before.units.length);
    expect(after.balanceUsd).toBe(before.balanceUsd);
  });

  it('--pool with --country, a narrowing without --country, or a bad value: exit 2 before any request', async () => {
    const before = kit.sb.requestLog().length;
    for (const [args, message] of [
      [['--pool', 'US-11', '--country', 'US'], '--pool names the pool; --country picks one: give one or the other'],
      [['--state', 'texas'], '--state narrows --country: give --country CC too'],
      [['--provider', 'Verizon'], '--provider narrows --country'],
      [['--country', 'USA'], '--country must be a two-letter ISO country code'],
      [['--country', 'US', '--provider', ' '], '--provider needs a value'],
    ] as const) {
      const r = await kit.run(['units', 'create', ...args, '--period', '7d', '--yes']);
      expect({ args, code: r.exitCode }).toEqual({ args, code: 2 });
      expect(String(r.stderr)).toContain(message);
    }
    const noPeriod = await kit.run(['units', 'create', '--country', 'US']);
    expect(noPeriod.exitCode).toBe(2);
    expect(String(noPeriod.stderr)).toContain('--period is required');
    expect(kit.sb.requestLog().length).toBe(before);
  });

  it('in a terminal without --period: the period, then the pool it picked, then the protocol and the price', async () => {
    const before = await kit.state();
    const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
    const t = inTerminal(env, ['units', 'create', '--country', 'US', '--provider', 'T-Mobile'], { columns: 120 });
    // Periods in order 3h, 12h, 24h, 7d, 30d: 7d is the fourth.
    const r = await answerPrompts(t, [
      ['Period', `${KEY.down}${KEY.down}${KEY.down}${KEY.enter}`],
      ['Protocol', KEY.enter],
      ['How many', KEY.enter],
      ['For which customer', KEY.enter],
      ['Buy for', `y${KEY.enter}`],
    ]);
    expect(r.exitCode, t.screen()).toBe(0);
    const screen = t.screen();
    expect(screen).toContain(`Pool: US-12, the cheapest of 2 available pools in US, provider T-Mobile (${usd(10)} for 7d)`);
    expect(screen.indexOf('Pool: US-12')).toBeLessThan(screen.indexOf('Protocol'));
    const after = await kit.state();
    expect(after.units.slice(before.units.length).map((u) => u.poolId)).toEqual(['US-12']);
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(cents(10));
  });
});
