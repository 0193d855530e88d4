// `sandbox trigger --reason/--kind` take only the values the sandbox knows: anything else is exit 2
// before any request (the sandbox used to be the one to refuse it), and TAB offers exactly those.
import { afterAll, expect, it } from 'vitest';
import { proxyctl, ran, startScriptedServer, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());

it.each([
  [['unit.down', '--unit', 'PRX-1', '--reason', 'nope'], 'quota_exceeded, server_unreachable'],
  [['usage.warning', '--unit', 'PRX-1', '--kind', 'nope'], 'throttle, delete'],
])('sandbox trigger %j exits 2 before any request', async (args, allowed) => {
  const server = await startScriptedServer();
  try {
    const r = await ran(
      proxyctl(['sandbox', 'trigger', ...args], { home, env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'rk_test' } }),
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain(`Allowed choices are ${allowed}`);
    expect(server.requests).toEqual([]);
  } finally {
    await server.close();
  }
});

it('TAB offers the reasons and kinds, in their declared order (directive 36: no files, keep order)', async () => {
  expect((await ran(proxyctl(['__complete', 'sandbox', 'trigger', 'unit.down', '--reason', ''], { home }))).out).toBe(
    'quota_exceeded\nserver_unreachable\n:36',
  );
  expect((await ran(proxyctl(['__complete', 'sandbox', 'trigger', 'usage.warning', '--kind', ''], { home }))).out).toBe(
    'throttle\ndelete\n:36',
  );
});
