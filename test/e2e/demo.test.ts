// `npm run demo` runs against a sandbox it stops at the end, so it prints no `export` line the
// user would copy into a shell only to reach a server that is gone.
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { cleanEnv } from '../helpers/index.js';

it('npm run demo finishes, says its sandbox stops, and prints no export line', async () => {
  const r = await execa(process.execPath, ['scripts/demo.mjs'], { reject: false, timeout: 60_000, env: cleanEnv(), extendEnv: true });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stdout)).toMatch(/^Sandbox running at http:\/\/127\.0\.0\.1:\d+ \(stopped when the demo ends\)$/m);
  expect(String(r.stdout)).not.toMatch(/export PROXYCTL/);
  expect(String(r.stdout)).toContain('Demo finished: sandbox stopped, temporary config removed.');
}, 90_000);
