// `units check REF...` against a server that answers badly for one unit: that row fails with
// `api_error`, and the checks of the other units are still printed (exit 10, not a lost run).
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyctl, type ScriptedServer, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

let home: TempHome;
let api: ScriptedServer;
let proxy: Server;
let proxyPort = 0;

beforeAll(async () => {
  home = tempHome();
  // A "proxy" that hangs up at once: its unit's check fails as refused, quickly and surely.
  proxy = createServer((s) => s.destroy());
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyPort = (proxy.address() as { port: number }).port;
  api = await startScriptedServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.endsWith('/units/PRX-1')) {
      res.end(
        JSON.stringify({
          proxyRef: 'PRX-1',
          status: 'ACTIVE',
          poolId: 'US-1',
          ip: '127.0.0.1',
          port: proxyPort,
          protocol: 'socks5',
          credentials: { username: 'u', password: 'p' },
          allowedIps: [],
          expiresAt: '2099-01-01T00:00:00Z',
        }),
      );
      return;
    }
    res.statusCode = req.url?.endsWith('/units/PRX-2') ? 500 : 404;
    res.end(JSON.stringify({ error: { type: 'api_error', code: 'internal', message: 'boom' } }));
  });
});
afterAll(async () => {
  await api.close();
  await new Promise((r) => proxy.close(r));
  home.cleanup();
});

describe('units check with a unit the API cannot read', () => {
  it('prints that row as api_error and the other rows as checked, exit 10', async () => {
    const r = await proxyctl(['units', 'check', 'PRX-1', 'PRX-2', '--target', 'http://127.0.0.1:9/', '--json'], {
      home,
      env: { PROXYCTL_BASE_URL: api.url, PROXYCTL_API_KEY: 'sk_test_unreadable' },
      timeout: 120_000,
    });
    expect(r.exitCode, String(r.stderr)).toBe(10);
    const rows = JSON.parse(String(r.stdout)) as { ref: string; ok: boolean; error: string }[];
    expect(rows.map((x) => [x.ref, x.ok, x.error])).toEqual([
      ['PRX-1', false, 'refused'],
      ['PRX-2', false, 'api_error'],
    ]);
  }, 150_000);
});
