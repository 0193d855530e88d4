// The swap answer carries no status or country: the unit is read back to show them, and when
// that read fails they are left out rather than shown as "-".
import { afterEach, expect, it } from 'vitest';
import { type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function boughtAndTarget() {
  kit = await startKit({ balance: 100 });
  const pools = await pickPools(kit);
  const from = pools[0]!.poolId;
  const to = pools.find((p) => !p.poolId.startsWith(from.slice(0, 2)))!;
  const bought = await kit.run(['units', 'create', '--pool', from, '--period', '3h', '--json', '-q']);
  return { kit, ref: JSON.parse(String(bought.stdout)).proxyRef as string, to: to.poolId };
}

const rows = (out: unknown) =>
  new Map(
    String(out)
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t') as [string, string]),
  );

it('shows the status and the country of the unit read back after the swap', async () => {
  const { kit, ref, to } = await boughtAndTarget();
  const r = await kit.run(['units', 'swap', ref, '--pool', to]);
  expect(r.exitCode).toBe(0);
  const unit = (await kit.state()).units.find((u) => u.proxyRef === ref)!;
  expect(unit.poolId).toBe(to);
  const shown = rows(r.stdout);
  expect(shown.get('pool')).toBe(to);
  expect(shown.get('status')).toBe('ACTIVE');
  expect(shown.get('country')).toBe(to.slice(0, 2));
});

it('when the read-back fails, the swap still succeeds and status/country are left out', async () => {
  const { kit, ref, to } = await boughtAndTarget();
  // Two reads fail: the one before the swap (for the old address) and the read-back after it.
  await kit.control('/faults', { failNext: { op: 'get', status: 404, count: 2 } });
  const r = await kit.run(['units', 'swap', ref, '--pool', to]);
  expect(r.exitCode).toBe(0);
  expect((await kit.state()).units.find((u) => u.proxyRef === ref)!.poolId).toBe(to);
  const shown = rows(r.stdout);
  expect(shown.get('pool')).toBe(to);
  expect(shown.has('status')).toBe(false);
  expect(shown.has('country')).toBe(false);
  // The old address could not be read either: the new one is still said.
  const u = (await kit.state()).units.find((x) => x.proxyRef === ref)!;
  expect(String(r.stderr)).toContain(`${ref} moved to ${to}: address now ${u.ip}:${u.port} (the old one could not be read)`);
});
