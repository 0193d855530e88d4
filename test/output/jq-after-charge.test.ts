// An output failure after money was spent never exits 2 (usage): a script that retries on 2
// without the idempotency key would buy again. The run exits 10 ("the charge went through, only
// its output failed") and names on stderr, even with -q, what it bought or extended. A --jq that
// does not compile is still exit 2 before any request, nothing bought.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, type Kit, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
});
afterAll(() => kit.close());

const run = async (...args: string[]) => {
  const r = await kit.run(args);
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
};

const price = async (period: string) => (await kit.api<{ prices: Record<string, number> }>('/prices')).prices[period]!;

describe('--jq fails on what a charging command prints', () => {
  it('units create --count 2 --yes --jq .proxyRef (the list is an array): bought once, exit 10, the refs named', async () => {
    const before = await kit.state();
    const r = await run('units', 'create', '--pool', 'US-11', '--period', '3h', '--count', '2', '--yes', '-q', '--jq', '.proxyRef');
    const after = await kit.state();
    const bought = after.units.filter((u) => !before.units.some((b) => b.proxyRef === u.proxyRef)).map((u) => u.proxyRef);
    expect(bought).toHaveLength(2);
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(2 * cents(await price('3h')));
    expect(r.code).toBe(10);
    expect(r.out).toBe('');
    expect(r.err).toContain('error: --jq: Cannot index array with string ("proxyRef"); nothing printed for it');
    expect(r.err).toContain(
      `the charge went through; only its output failed (exit 10), so do not run it again to buy or extend them:\n  bought: ${bought.join(', ')}`,
    );
  });

  it('units extend REF --jq \'error("x")\': extended once, exit 10, the ref named', async () => {
    const [ref] = seedFleet(kit, [{ poolId: 'US-11', hoursLeft: 5 }]);
    const before = await kit.state();
    const r = await run('units', 'extend', ref!, '--period', '3h', '--jq', 'error("x")');
    const after = await kit.state();
    expect(r.code).toBe(10);
    expect(r.out).toBe('');
    expect(r.err).toContain('error: --jq: x');
    expect(r.err).toContain(`  extended: ${ref}`);
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(cents(await price('3h')));
    const unit = (s: typeof after) => s.units.find((u) => u.proxyRef === ref)!;
    expect(Date.parse(unit(after).expiresAt) - Date.parse(unit(before).expiresAt)).toBe(3 * 3_600_000);
  });

  it('a purchase through proxyctl api: the same, whichever path sent the charge', async () => {
    const before = await kit.state();
    const r = await run('api', '-X', 'POST', '/units', '--data', '{"poolId":"US-11","period":"3h"}', '--yes', '--jq', 'error("x")');
    const after = await kit.state();
    const bought = after.units.filter((u) => !before.units.some((b) => b.proxyRef === u.proxyRef)).map((u) => u.proxyRef);
    expect(bought).toHaveLength(1);
    expect(r.code).toBe(10);
    expect(r.err).toContain(`  bought: ${bought[0]}`);
  });

  it('a dry run charges nothing: the same failure is exit 2, nothing named', async () => {
    const before = await kit.state();
    const r = await run('units', 'create', '--pool', 'US-11', '--period', '3h', '--count', '2', '--dry-run', '--jq', 'error("x")');
    expect(r.code).toBe(2);
    expect(r.err).toContain('error: --jq: x');
    expect(r.err).not.toContain('the charge went through');
    expect(await kit.state()).toEqual(before);
  });

  it('a --jq that does not compile: exit 2 before any request, nothing bought', async () => {
    const before = await kit.state();
    const requests = kit.sb.requestLog().length;
    const r = await run('units', 'create', '--pool', 'US-11', '--period', '3h', '--count', '2', '--yes', '--jq', '.[] |');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).not.toContain('the charge went through');
    expect(kit.sb.requestLog().length).toBe(requests);
    expect(await kit.state()).toEqual(before);
  });
});
