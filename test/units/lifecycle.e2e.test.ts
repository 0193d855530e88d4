// The unit lifecycle end to end: the built binary against an in-process sandbox, asserting exit
// codes, exact output and the server's state (balance debited exactly once per unit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit;
let pool: string;
let otherPool: string;
let price7d: number;
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
  const pools = await pickPools(kit);
  pool = pools[0]!.poolId;
  otherPool = pools[1]!.poolId;
  price7d = pools[0]!.prices['7d']!;
});
afterAll(() => kit.close());

describe('units lifecycle on the sandbox', () => {
  let ref: string;

  it('create prints the unit and debits its price once', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '7d', '--json']);
    expect(r.exitCode).toBe(0);
    const unit = JSON.parse(String(r.stdout));
    ref = unit.proxyRef;
    const after = await kit.state();
    // The only line on stderr: what it cost and what is left (issue 13).
    expect(r.stderr).toBe(`charged ${price7d.toFixed(2)} USD, balance now ${after.balanceUsd.toFixed(2)} USD`);
    expect(after.units.map((u) => u.proxyRef)).toEqual([ref]);
    expect(unit).toMatchObject({ poolId: pool, protocol: 'socks5', status: 'ACTIVE' });
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(cents(price7d));
  });

  it('get -o conn prints ip:port:username:password', async () => {
    const [u] = (await kit.state()).units;
    const r = await kit.run(['units', 'get', ref, '-o', 'conn']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${u!.ip}:${u!.port}:${u!.credentials!.username}:${u!.credentials!.password}`);
  });

  it('list prints a tab-separated table off a TTY and the export with --all -o conn', async () => {
    const t = await kit.run(['units', 'list']);
    expect(t.exitCode).toBe(0);
    const cols = String(t.stdout).split('\t');
    expect(cols.slice(0, 4)).toEqual([ref, pool, 'socks5', 'ACTIVE']);
    expect(cols[4]).toMatch(/^(6d 23h|7d)$/);
    const c = await kit.run(['units', 'list', '--all', '-o', 'conn']);
    const g = await kit.run(['units', 'get', ref, '-o', 'conn']);
    expect(c.stdout).toBe(g.stdout);
  });

  it('dry-run quotes and buys nothing', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '7d', '--count', '3', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    const q = JSON.parse(String(r.stdout));
    expect(q).toMatchObject({
      dryRun: true,
      poolId: pool,
      count: 3,
      unitPrice: price7d,
      total: cents(price7d * 3) / 100,
      balanceUsd: before.balanceUsd,
      affordable: true,
    });
    expect((await kit.state()).units).toHaveLength(before.units.length);
  });

  it('extend --dry-run quotes once per unit, even for a ref typed twice', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'extend', ref, 'PRX-424242', ref, '--period', '7d', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({
      dryRun: true,
      refs: [ref, 'PRX-424242'],
      count: 2,
      unitPrice: price7d,
      affordable: true,
    });
    // The warning names the ref that was typed twice, not every ref.
    expect(r.stderr).toContain(`${ref} was named more than once; it is extended once`);
    expect(r.stderr).not.toContain('PRX-424242 was');
    const after = await kit.state();
    expect(after.balanceUsd).toBe(before.balanceUsd);
    expect(after.units.map((u) => u.expiresAt)).toEqual(before.units.map((u) => u.expiresAt));
  });

  it('a batch it cannot afford exits 6 before buying anything, saying how much is missing', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '30d', '--count', '500']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/USD missing; nothing was bought/);
    const after = await kit.state();
    expect(after.units).toHaveLength(before.units.length);
    expect(after.balanceUsd).toBe(before.balanceUsd);
  });

  it('extend adds one period and charges once', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'extend', ref, '--period', '7d', '--json']);
    expect(r.exitCode).toBe(0);
    const after = await kit.state();
    const u0 = before.units.find((u) => u.proxyRef === ref)!;
    const u1 = after.units.find((u) => u.proxyRef === ref)!;
    expect(Date.parse(u1.expiresAt) - Date.parse(u0.expiresAt)).toBe(7 * 86_400_000);
    expect(JSON.parse(String(r.stdout))).toEqual({ proxyRef: ref, expiresAt: u1.expiresAt, extended: true });
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(cents(price7d));
  });

  it('extend of several refs: one unknown ref is a partial failure (exit 10), charged only for the other', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'extend', ref, 'PRX-99999', '--period', '7d', '--json']);
    expect(r.exitCode).toBe(10);
    const rows = JSON.parse(String(r.stdout));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ proxyRef: ref, extended: true });
    expect(rows[1]).toMatchObject({ proxyRef: 'PRX-99999', extended: false, error: { code: 'unit_not_found' } });
    expect(JSON.parse(String(r.stderr).trim().split('\n').at(-1)!).error).toMatchObject({ code: 'partial_failure' });
    expect(cents(before.balanceUsd - (await kit.state()).balanceUsd)).toBe(cents(price7d));
  });

  it('swap moves the unit for free and prints the new connection', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'swap', ref, '--pool', otherPool, '-o', 'conn']);
    expect(r.exitCode).toBe(0);
    const u = (await kit.state()).units.find((x) => x.proxyRef === ref)!;
    expect(u.poolId).toBe(otherPool);
    expect(r.stdout).toBe(`${u.ip}:${u.port}:${u.credentials!.username}:${u.credentials!.password}`);
    expect((await kit.state()).balanceUsd).toBe(before.balanceUsd);
  });

  it('change-protocol to inject whitelists one IP; conn is then ip:port', async () => {
    const r = await kit.run(['units', 'change-protocol', ref, '--protocol', 'inject', '--allow-ip', '203.0.113.7', '-o', 'conn']);
    expect(r.exitCode).toBe(0);
    const u = (await kit.state()).units.find((x) => x.proxyRef === ref)!;
    expect(r.stdout).toBe(`${u.ip}:${u.port}`);
    const again = await kit.run(['units', 'change-protocol', ref, '--protocol', 'http_noauth', '--allow-ip', '203.0.113.7']);
    expect(again.exitCode).toBe(8);
  });

  it('modify replaces the whitelist', async () => {
    const r = await kit.run(['units', 'modify', ref, '--allow-ip', '203.0.113.8', '--allow-ip', '203.0.113.9', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ proxyRef: ref, modified: true });
    const got = JSON.parse(String((await kit.run(['units', 'get', ref, '--json'])).stdout));
    expect(got.allowedIps).toEqual(['203.0.113.8', '203.0.113.9']);
  });

  it('usage shows the quota as a bar and passes JSON through', async () => {
    const j = await kit.run(['units', 'usage', ref, '--json']);
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(String(j.stdout))).toHaveProperty('mode', 'daily');
    const t = await kit.run(['units', 'usage', ref]);
    expect(t.stdout).toMatch(/^today\t[\d.]+ \/ [\d.]+ MB$/m);
  });

  it('release refuses without --yes off a TTY (exit 2, no request), then releases with it', async () => {
    const refused = await kit.run(['units', 'release', ref]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/refusing to release .* without confirmation/);
    expect((await kit.state()).units.find((u) => u.proxyRef === ref)!.releasedAt).toBeNull();
    const done = await kit.run(['units', 'release', ref, '--yes', '--json']);
    expect(done.exitCode).toBe(0);
    expect(JSON.parse(String(done.stdout))).toEqual({ proxyRef: ref, removed: true });
    expect((await kit.state()).units.find((u) => u.proxyRef === ref)!.releasedAt).not.toBeNull();
  });
});
