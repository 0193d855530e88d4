// A dry run prints a quote in words (JSON keeps its keys): what, how many, the price, the balance
// now and after, and nothing is bought or extended.
import { afterEach, expect, it } from 'vitest';
import { type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

it('units extend --dry-run and units create --dry-run, piped', async () => {
  kit = await startKit({ balance: 100 });
  const [pool] = await pickPools(kit);
  const bought = await kit.run(['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', '2', '--json', '-q']);
  const refs = JSON.parse(String(bought.stdout)).map((u: { proxyRef: string }) => u.proxyRef) as string[];
  const before = await kit.state();
  const p = pool!.prices;
  const usd = (n: number) => n.toFixed(2).replace(/\.?0+$/, '');

  const ext = await kit.run(['units', 'extend', ...refs, '--period', '24h', '--dry-run']);
  expect(ext.exitCode).toBe(0);
  const total = (2 * Math.round(p['24h']! * 100)) / 100;
  expect(String(ext.stdout).trimEnd().split('\n')).toEqual([
    `units\t${refs.join(', ')}`,
    'period\t24h',
    'count\t2',
    `unit price\t${p['24h']}`,
    `total\t${total}`,
    `balance now\t${before.balanceUsd}`,
    `balance after\t${usd((Math.round(before.balanceUsd * 100) - Math.round(total * 100)) / 100)}`,
    'affordable\tyes',
  ]);

  const cr = await kit.run(['units', 'create', '--pool', pool!.poolId, '--period', '7d', '--dry-run']);
  expect(cr.exitCode).toBe(0);
  expect(String(cr.stdout).trimEnd().split('\n')).toEqual([
    `pool\t${pool!.poolId}`,
    'protocol\tsocks5',
    'period\t7d',
    'count\t1',
    `unit price\t${p['7d']}`,
    `total\t${p['7d']}`,
    `balance now\t${before.balanceUsd}`,
    `balance after\t${usd((Math.round(before.balanceUsd * 100) - Math.round(p['7d']! * 100)) / 100)}`,
    'affordable\tyes',
  ]);
  const after = await kit.state();
  expect(after.balanceUsd).toBe(before.balanceUsd);
  expect(after.units.map((u) => u.expiresAt)).toEqual(before.units.map((u) => u.expiresAt));
});
