// -q hides notices, never the idempotency key a batch needs to be resumed without paying twice.
import { afterEach, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

it('a batch that fails part-way under -q still names its key, and re-running with it buys only the rest', async () => {
  kit = await startKit({ balance: 100 });
  const [pool] = await pickPools(kit);
  const price = pool!.prices['3h']!;
  await kit.control('/faults', { failNext: { op: 'create', status: 400, code: 'validation_error', count: 1 } });
  const args = ['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', '3', '--json', '-q'];
  const r = await kit.run(args);
  expect(r.exitCode).toBe(10);
  const lines = String(r.stderr).trimEnd().split('\n');
  const key =
    /^idempotency key ([0-9a-f-]{36}) \(if this is interrupted, re-run with --idempotency-key \1 to resume without buying twice\)$/.exec(
      lines[0]!,
    )?.[1];
  expect(key, String(r.stderr)).toBeDefined();
  expect(lines).toContain(`to retry the rest without buying twice: add --idempotency-key ${key} to the same command`);
  expect((await kit.state()).units).toHaveLength(2);

  const again = await kit.run([...args, '--idempotency-key', key!]);
  expect(again.exitCode, String(again.stderr)).toBe(0);
  const s = await kit.state();
  expect(s.units).toHaveLength(3);
  expect(cents(100 - s.balanceUsd)).toBe(3 * cents(price));
});
