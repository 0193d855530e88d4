// Off a terminal, a batch waiting for the rate limit says so once per wait: the requests that
// join the same wait (each concurrent purchase waits for the same window) print no line of their own.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ rateLimit: 4, rateWindowSeconds: 2 });
});
afterAll(() => kit.close());

it('one "waiting … for the rate limit" line per wait, whatever the concurrency', { timeout: 60_000 }, async () => {
  const r = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '3h', '--count', '8', '--yes', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(JSON.parse(String(r.stdout))).toHaveLength(8);
  const waits = String(r.stderr)
    .split('\n')
    .filter((l) => l.includes('for the rate limit'));
  expect(waits.length, String(r.stderr)).toBeGreaterThan(0);
  for (const l of waits) expect(l).toMatch(/^\[\d+\/8\] waiting \d+ s for the rate limit$/);
  // A wait is said once: no line repeats, and no two follow one another at the same count.
  const counts = waits.map((l) => /^\[(\d+)\//.exec(l)![1]);
  expect(new Set(counts).size, waits.join('\n')).toBe(counts.length);
});
