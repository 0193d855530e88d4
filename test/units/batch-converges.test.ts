// Re-running a batch with the key it printed converges: after refunded upstream failures, the same
// command ends with exactly COUNT units and COUNT debits. A refunded item is bought under a fresh
// derived key (the server replays a key's failure for 24 hours), never replayed as a failure
// forever and never counted as bought; every run prints every unit the key owns.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, proxyctl, startKit, tempHome } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

type Row = { proxyRef?: string; error?: { code: string } };
const refsOf = (stdout: unknown) => (JSON.parse(String(stdout)) as Row[]).flatMap((r) => (r.proxyRef ? [r.proxyRef] : []));
const keyOf = (stderr: unknown) => /--idempotency-key ([0-9a-f-]{36})/.exec(String(stderr))?.[1];

async function failingRun(count: number) {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const [pool] = await pickPools(kit);
  const price = pool!.prices['3h']!;
  // Run 1: three units provisioned, then the pool fails upstream (every debit refunded).
  let calls = 0;
  kit.sb.world.engineFails = () => ++calls > 3;
  const args = ['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', String(count), '--json'];
  const first = await kit.run(args);
  expect(first.exitCode).toBe(10);
  const key = keyOf(first.stderr)!;
  expect(key).toBeDefined();
  expect(refsOf(first.stdout)).toHaveLength(3);
  expect(cents(1000 - (await kit.state()).balanceUsd)).toBe(3 * cents(price));
  return { kit, price, args: [...args, '--idempotency-key', key] };
}

describe('re-running a batch after refunded upstream failures', () => {
  it('ends with exactly COUNT units and COUNT debits; a third run prints them all and charges nothing', async () => {
    const { kit, price, args } = await failingRun(8);
    // Run 2: the pool fails every other time now.
    let calls = 0;
    kit.sb.world.engineFails = () => ++calls % 2 === 1;
    const second = await kit.run(args);
    expect(second.exitCode).toBe(0);
    const refs = refsOf(second.stdout);
    expect(refs).toHaveLength(8);
    expect(String(second.stderr)).toContain('3 of 8 were bought earlier with this idempotency key');
    expect(String(second.stderr)).toContain(`charged ${(5 * price).toFixed(2)} USD`);
    let s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual([...refs].sort());
    expect(cents(1000 - s.balanceUsd)).toBe(8 * cents(price));

    kit.sb.world.engineFails = () => true;
    const third = await kit.run(args);
    expect(third.exitCode).toBe(0);
    expect(refsOf(third.stdout)).toEqual(refs);
    expect(String(third.stderr)).toContain('8 of 8 were bought earlier');
    expect(String(third.stderr)).not.toContain('charged');
    s = await kit.state();
    expect(s.units).toHaveLength(8);
    expect(cents(1000 - s.balanceUsd)).toBe(8 * cents(price));
  }, 120_000);

  it('converges from another config dir too (no local record of the key): the server replays, fresh keys buy the rest', async () => {
    const { kit, price, args } = await failingRun(6);
    kit.sb.world.engineFails = () => false;
    const elsewhere = tempHome();
    try {
      const r = await proxyctl(args, { home: elsewhere, env: { PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey } });
      expect(r.exitCode).toBe(0);
      const refs = refsOf(r.stdout);
      expect(refs).toHaveLength(6);
      expect(String(r.stderr)).toContain('3 of the 6 were bought earlier with this idempotency key: replayed, not charged again');
      expect(String(r.stderr)).toContain(`charged ${(3 * price).toFixed(2)} USD`);
      const s = await kit.state();
      expect(s.units.map((u) => u.proxyRef).sort()).toEqual([...refs].sort());
      expect(cents(1000 - s.balanceUsd)).toBe(6 * cents(price));
    } finally {
      elsewhere.cleanup();
    }
  }, 120_000);
});
