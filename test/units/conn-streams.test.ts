// `units create -o conn` into a pipe or a file writes each unit's line as that unit is bought, not
// when the whole batch ends: a long batch's file fills as it goes, and the lines are not written twice.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outputUntil, startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 1000 });
});
afterAll(() => kit.close());

it('the first line arrives while the rest of the batch is still being bought; each line once', { timeout: 60_000 }, async () => {
  // The engine holds every purchase until the test lets it go: the first now, the rest later.
  const held: (() => void)[] = [];
  kit.sb.world.engineDelay = () => new Promise<void>((r) => held.push(r));
  const child = kit.run(['units', 'create', '--pool', 'US-11', '--period', '3h', '--count', '3', '--yes', '-o', 'conn']);
  await expect.poll(() => held.length, { timeout: 30_000, interval: 20 }).toBe(3);
  held.shift()!();
  const first = await outputUntil(child, 'stdout', (t) => t.includes('\n'));
  // Written while two purchases are still held: the process has not ended.
  expect(child.exitCode).toBeNull();
  expect(first).toMatch(/^127\.[\d.]+:\d+:\w+:\w+\n$/);
  for (const release of held.splice(0)) release();
  const r = await child;
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const lines = String(r.stdout).trim().split('\n');
  const units = (await kit.state()).units;
  expect(lines).toHaveLength(3);
  expect(new Set(lines).size).toBe(3);
  expect(lines.sort()).toEqual(units.map((u) => `${u.ip}:${u.port}:${u.credentials!.username}:${u.credentials!.password}`).sort());
});
