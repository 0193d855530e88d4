// `npm run demo` runs against a sandbox it stops at the end, so it prints no `export` line the
// user would copy into a shell only to reach a server that is gone.
import { execa, type Result } from 'execa';
import { expect, it } from 'vitest';
import { cleanEnv } from '../helpers/index.js';

// One run of the demo serves every assertion (it buys, checks and fires webhooks: seconds on 2 cores).
let once: Promise<Result> | undefined;
const demo = () => {
  once ??= execa(process.execPath, ['scripts/demo.mjs'], {
    reject: false,
    timeout: 60_000,
    env: cleanEnv(),
    extendEnv: true,
  }) as unknown as Promise<Result>;
  return once;
};

it('npm run demo finishes, says its sandbox stops, and prints no export line', async () => {
  const r = await demo();
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stdout)).toMatch(/^Sandbox running at http:\/\/127\.0\.0\.1:\d+ \(stopped when the demo ends\)$/m);
  expect(String(r.stdout)).not.toMatch(/export PROXYCTL/);
  expect(String(r.stdout)).toContain('Demo finished: sandbox stopped, temporary config removed.');
}, 90_000);

it('npm run demo checks every unit, takes one down, and the second check fails for it alone (exit 10)', async () => {
  const r = await demo();
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const out = String(r.stdout);
  const first = out.indexOf('$ proxyctl units check --all');
  const down = out.indexOf('$ proxyctl sandbox trigger unit.down --unit ');
  const second = out.indexOf('$ proxyctl units check --all', down);
  expect([first >= 0, down > first, second > down]).toEqual([true, true, true]);
  // Piped, the table is tab-separated: unit, ip, port, protocol, ok, status, ms, exit ip, error.
  const rows = (from: number, to: number) =>
    out
      .slice(from, to)
      .split('\n')
      .filter((l) => /^PRX-/.test(l))
      .map((l) => l.split('\t'));
  const before = rows(first, down);
  const after = rows(second, out.indexOf('(exit 10)', second));
  expect(before.map((c) => [c[4], c[8]])).toEqual([
    ['ok', '-'],
    ['ok', '-'],
  ]);
  // The echo saw each request from the unit's own address.
  for (const c of before) expect(c[7]).toBe(c[1]);
  const downed = out.slice(down).match(/--unit (PRX-\d+)/)?.[1];
  expect(after.map((c) => [c[0] === downed, c[4], c[8]]).sort()).toEqual([
    [false, 'ok', '-'],
    [true, 'FAIL', 'refused'],
  ]);
  expect(out).toContain('(exit 10)');
  expect(String(r.stderr)).toMatch(/^2 ok, 0 failed · latency median \d+ ms, p95 \d+ ms$/m);
  expect(String(r.stderr)).toMatch(/^1 ok, 1 failed · latency median \d+ ms, p95 \d+ ms$/m);
}, 90_000);
