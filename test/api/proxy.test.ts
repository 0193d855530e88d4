// HTTPS_PROXY failures: a proxy that hangs up, never answers, or refuses CONNECT must end in a
// prompt exit 9 naming the proxy, never a hang, a busy loop or a bogus "interrupted" (130).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain, tempHome } from '../helpers/index.js';

type Behaviour = 'close' | 'silent' | '407';

async function startProxy(behaviour: Behaviour): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.end());
  server.on('connect', (_req, socket) => {
    if (behaviour === 'close') socket.destroy();
    else if (behaviour === '407') socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
    // 'silent': keep the socket open and never answer.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('HTTPS_PROXY failures', () => {
  const cfg = tempHome();
  const proxies: Partial<Record<Behaviour, { url: string; server: Server }>> = {};
  beforeAll(async () => {
    for (const b of ['close', 'silent', '407'] as const) proxies[b] = await startProxy(b);
  });
  afterAll(() => {
    for (const p of Object.values(proxies)) p?.server.closeAllConnections();
    for (const p of Object.values(proxies)) p?.server.close();
    cfg.cleanup();
  });

  for (const [behaviour, detail] of [
    ['close', /other side closed/],
    ['silent', /no answer within 0\.5s/],
    ['407', /HTTP 407/],
  ] as const) {
    it(`a proxy that ${behaviour === 'close' ? 'hangs up' : behaviour === 'silent' ? 'never answers' : 'answers 407'} exits 9`, async () => {
      // The hang this guards against shows as the test's own timeout; no timing is asserted.
      const r = await runMain(['account', '--base-url', 'https://api.example.com', '--timeout', '0.5'], {
        configDir: cfg.configDir,
        env: { PROXYCTL_API_KEY: 'pk_test_proxy', HTTPS_PROXY: proxies[behaviour]!.url, NO_PROXY: '' },
      });
      expect(r.code).toBe(9);
      expect(r.err).toMatch(/the proxy could not reach api\.example\.com/);
      expect(r.err).toMatch(detail);
      expect(r.err).toContain('code proxy_error');
      expect(r.out).toBe('');
    }, 15_000);
  }
});
