// Purchases under faults, end to end: lost responses after the server committed, refunded 503s,
// 429 storms, partial failure and Ctrl-C. Each test checks the server's state afterwards: the
// units that exist and a balance debited exactly once per unit.
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cents, cleanEnv, type Kit, pickPools, startKit } from '../helpers/index.js';

const KEY = '6b1f7d0e-2c3a-4e5f-8a9b-0c1d2e3f4a5b';
let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function setup(opts: Parameters<typeof startKit>[0] = {}) {
  kit = await startKit({ balance: 1000, ...opts });
  const pools = await pickPools(kit);
  return { kit, pool: pools[0]!.poolId, pools, price: (p: string) => pools[0]!.prices[p]! };
}

describe('purchases never double-charge', () => {
  it('a create whose response is lost after the commit is retried with the same key: one unit, one debit', async () => {
    const { kit, pool, price } = await setup();
    await kit.control('/faults', { dropAfterCommit: { op: 'create', count: 1 } });
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--json']);
    expect(r.exitCode).toBe(0);
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef)).toEqual([JSON.parse(String(r.stdout)).proxyRef]);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price('24h')));
  });

  it('re-running a batch with the same --idempotency-key resumes it instead of buying again', async () => {
    const { kit, pool, price } = await setup();
    await kit.control('/faults', { dropAfterCommit: { op: 'create', count: 2 } });
    const args = ['units', 'create', '--pool', pool, '--period', '3h', '--count', '3', '--idempotency-key', KEY, '--json'];
    const first = await kit.run(args);
    expect(first.exitCode).toBe(0);
    const refs = JSON.parse(String(first.stdout))
      .map((u: { proxyRef: string }) => u.proxyRef)
      .sort();
    expect(refs).toHaveLength(3);
    const again = await kit.run(args);
    expect(again.exitCode).toBe(0);
    expect(
      JSON.parse(String(again.stdout))
        .map((u: { proxyRef: string }) => u.proxyRef)
        .sort(),
    ).toEqual(refs);
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual(refs);
    expect(cents(1000 - s.balanceUsd)).toBe(3 * cents(price('3h')));
  });

  it('resuming a batch with its key only needs the balance for the items not yet bought', async () => {
    const { kit, pool, price } = await setup({ balance: 20 });
    const args = ['units', 'create', '--pool', pool, '--period', '24h', '--count', '3', '--idempotency-key', KEY, '--json'];
    // The engine provisions two units, then fails upstream (refunded) for the rest of the run.
    let calls = 0;
    kit.sb.world.engineFails = () => ++calls > 2;
    const first = await kit.run(args);
    expect(first.exitCode).toBe(10);
    const bought = JSON.parse(String(first.stdout)).flatMap((u: { proxyRef?: string }) => (u.proxyRef ? [u.proxyRef] : []));
    expect(bought).toHaveLength(2);
    // 20 - 2 × 4.25 leaves 11.50; down to 5, the balance pays for the one unit left, not for three.
    kit.sb.world.engineFails = () => false;
    await kit.control('/balance', { balanceUsd: 5 });
    const again = await kit.run(args);
    expect(again.stderr).toContain('2 of 3 were bought earlier with this idempotency key');
    expect(again.exitCode).toBe(0);
    const refs = JSON.parse(String(again.stdout)).map((u: { proxyRef: string }) => u.proxyRef);
    expect(refs).toHaveLength(3);
    expect(refs).toEqual(expect.arrayContaining(bought));
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual([...refs].sort());
    expect(cents(s.balanceUsd)).toBe(cents(5 - price('24h')));
  });

  it('a pool whose creates fail upstream (503) buys nothing and refunds everything: exit 9', async () => {
    const probe = await setup();
    const failPool = probe.pool;
    await probe.kit.close();
    const { kit } = await setup({ failPool });
    const r = await kit.run(['units', 'create', '--pool', failPool, '--period', '3h', '--count', '2']);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toMatch(/upstream/i);
    // Nothing was bought: no empty table, and no "No units found." as if a list had been asked for.
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/No units found/);
    const s = await kit.state();
    expect(s.units).toEqual([]);
    expect(s.balanceUsd).toBe(1000);
  }, 30_000);

  it('some refunded failures and some purchases: exit 10, per-item JSON, one debit per unit', async () => {
    const { kit, pool, price } = await setup();
    // Two items × up to 4 attempts each: 7 injected 503s leave exactly one item failing for good.
    await kit.control('/faults', { failNext: { op: 'create', status: 503, code: 'upstream_unreachable', count: 7 } });
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '2', '--json']);
    expect(r.exitCode).toBe(10);
    const rows = JSON.parse(String(r.stdout));
    const ok = rows.filter((x: { proxyRef?: string }) => x.proxyRef);
    const failed = rows.filter((x: { error?: unknown }) => x.error);
    expect(ok).toHaveLength(1);
    expect(failed).toEqual([
      {
        index: expect.any(Number),
        idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
        error: expect.objectContaining({ code: 'upstream_unreachable' }),
      },
    ]);
    expect(r.stderr).toMatch(/1 of 2 created/);
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef)).toEqual([ok[0].proxyRef]);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price('3h')));
  }, 30_000);

  it('injected 429s are waited out with the same keys: every unit bought once', async () => {
    const { kit, pool, price } = await setup({ rateWindowSeconds: 2 });
    await kit.control('/faults', { failNext: { op: 'create', status: 429, count: 4 } });
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '12h', '--count', '3', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toHaveLength(3);
    const s = await kit.state();
    expect(s.units).toHaveLength(3);
    expect(cents(1000 - s.balanceUsd)).toBe(3 * cents(price('12h')));
  }, 30_000);

  it('a 429 storm from two competing processes: both batches complete, each unit debited once', async () => {
    const { kit, pool, price } = await setup({ rateLimit: 3, rateWindowSeconds: 1 });
    const args = ['units', 'create', '--pool', pool, '--period', '3h', '--count', '6', '--json', '--debug'];
    const [a, b] = await Promise.all([kit.run(args), kit.run(args)]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    // The storm happened (the other process spent the shared budget) and was ridden out.
    expect(`${a.stderr}${b.stderr}`).toContain('← 429');
    const refs = [...JSON.parse(String(a.stdout)), ...JSON.parse(String(b.stdout))].map((u: { proxyRef: string }) => u.proxyRef).sort();
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual(refs);
    expect(refs).toHaveLength(12);
    expect(cents(1000 - s.balanceUsd)).toBe(12 * cents(price('3h')));
  }, 30_000);

  it('steady-state bulk work is paced under the rate limit: no request ends in 429', async () => {
    const { kit, pool } = await setup({ rateLimit: 6, rateWindowSeconds: 1 });
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '12', '--json', '--debug']);
    expect(r.exitCode).toBe(0);
    expect((await kit.state()).units).toHaveLength(12);
    expect(String(r.stderr)).toContain('← 201');
    expect(String(r.stderr)).not.toContain('← 429');
  }, 30_000);

  it('Ctrl-C during a bulk create stops new purchases, finishes the started ones, reports them, exits 130', async () => {
    const { kit, pool, price } = await setup({ rateLimit: 2, rateWindowSeconds: 1 });
    const child = execa('node', [BIN, 'units', 'create', '--pool', pool, '--period', '3h', '--count', '30', '--json'], {
      reject: false,
      env: cleanEnv({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey }),
    });
    let seen = '';
    await new Promise<void>((resolve) => {
      child.stderr!.on('data', (c: Buffer) => {
        seen += c.toString();
        if (seen.includes('[1/30] created')) resolve();
      });
    });
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const printed = JSON.parse(String(r.stdout)) as { proxyRef: string }[];
    expect(printed.length).toBeGreaterThanOrEqual(1);
    expect(printed.length).toBeLessThan(30);
    expect(r.stderr).toMatch(/not started/);
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual(printed.map((u) => u.proxyRef).sort());
    expect(cents(1000 - s.balanceUsd)).toBe(printed.length * cents(price('3h')));
  }, 30_000);

  it('an extend whose response is lost is settled by re-reading the expiry: applied, charged once, not retried', async () => {
    const { kit, pool, price } = await setup();
    const created = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--json']);
    const ref = JSON.parse(String(created.stdout)).proxyRef as string;
    const before = await kit.state();
    await kit.control('/faults', { dropAfterCommit: { op: 'extend', count: 1 } });
    const r = await kit.run(['units', 'extend', ref, '--period', '7d', '--json']);
    expect(r.exitCode).toBe(0);
    const after = await kit.state();
    const u = after.units.find((x) => x.proxyRef === ref)!;
    expect(JSON.parse(String(r.stdout))).toEqual({ proxyRef: ref, expiresAt: u.expiresAt, extended: true });
    expect(Date.parse(u.expiresAt) - Date.parse(before.units[0]!.expiresAt)).toBe(7 * 86_400_000);
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(cents(price('7d')));
  });

  it('an extend that failed ambiguously but did not apply says so plainly, with the ref, and charges nothing', async () => {
    const { kit, pool } = await setup();
    const created = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--json']);
    const ref = JSON.parse(String(created.stdout)).proxyRef as string;
    const before = await kit.state();
    await kit.control('/faults', { failNext: { op: 'extend', status: 502, count: 1 } });
    const r = await kit.run(['units', 'extend', ref, '--period', '7d']);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain(`${ref} was not extended`);
    expect(r.stderr).toContain('nothing was charged');
    const after = await kit.state();
    expect(after.balanceUsd).toBe(before.balanceUsd);
    expect(after.units[0]!.expiresAt).toBe(before.units[0]!.expiresAt);
  });

  it('after a partial 503 failure, re-running with the same key buys only the missing unit', async () => {
    const { kit, pool, price } = await setup();
    await kit.control('/faults', { failNext: { op: 'create', status: 503, code: 'upstream_unreachable', count: 7 } });
    const args = ['units', 'create', '--pool', pool, '--period', '3h', '--count', '2', '--idempotency-key', KEY, '--json'];
    const first = await kit.run(args);
    expect(first.exitCode).toBe(10);
    const bought = JSON.parse(String(first.stdout)).filter((x: { proxyRef?: string }) => x.proxyRef);
    expect(bought).toHaveLength(1);
    const again = await kit.run(args);
    expect(again.exitCode).toBe(0);
    const refs = JSON.parse(String(again.stdout)).map((u: { proxyRef: string }) => u.proxyRef);
    expect(refs).toContain(bought[0].proxyRef);
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual([...refs].sort());
    expect(s.units).toHaveLength(2);
    expect(cents(1000 - s.balanceUsd)).toBe(2 * cents(price('3h')));
  }, 30_000);
});
