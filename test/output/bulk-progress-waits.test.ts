// A bulk run that waits for the rate limit says so ("waiting 4 s for the rate limit") instead of
// standing still: a line in logs, on the bar on a terminal; the bar also shows the time left.
import { afterEach, expect, it } from 'vitest';
import { cents, inTerminal, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** A sandbox that allows 4 requests per 2-second window: buying 6 units has to wait. */
async function tight() {
  kit = await startKit({ balance: 100, rateLimit: 4, rateWindowSeconds: 2 });
  const [pool] = await pickPools(kit);
  return { kit, pool: pool!.poolId, price: pool!.prices['3h']! };
}

it('off a terminal: a line when the batch waits for the rate limit, and every unit bought once', async () => {
  const { kit, pool, price } = await tight();
  const r = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '6', '-o', 'conn']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stderr)).toMatch(/^\[\d\/6\] waiting \d+ s for the rate limit$/m);
  const s = await kit.state();
  expect(s.units).toHaveLength(6);
  expect(cents(100 - s.balanceUsd)).toBe(6 * cents(price));
});

it('-q: no wait lines', async () => {
  const { kit, pool } = await tight();
  const r = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '6', '-o', 'conn', '-q']);
  expect(r.exitCode).toBe(0);
  expect(String(r.stderr)).not.toContain('waiting');
});

it('on a terminal: the bar says it waits for the rate limit', async () => {
  const { kit, pool } = await tight();
  const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
  const t = inTerminal(env, ['units', 'create', '--pool', pool, '--period', '3h', '--count', '6', '-o', 'conn']);
  const r = await t.child;
  expect(r.exitCode, t.screen()).toBe(0);
  expect(t.screen()).toMatch(/\d\/6 created · waiting \d+ s for the rate limit/);
  expect((await kit.state()).units).toHaveLength(6);
});

it('on a terminal: the bar shows the time left once an item is done', async () => {
  kit = await startKit({ balance: 100 });
  const [pool] = await pickPools(kit);
  const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
  const t = inTerminal(env, ['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', '3', '-o', 'conn']);
  const r = await t.child;
  expect(r.exitCode, t.screen()).toBe(0);
  expect(t.screen()).toMatch(/[12]\/3 created · ETA \d+s/);
});
