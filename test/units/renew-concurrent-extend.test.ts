// A renewal racing another extension: between `units extend --expiring-within`'s listing and its own
// extend request, something else (another proxyctl, a cron job) extends the unit. The unit read
// right before our request expires later than the listing said, so it is renewed already: it is
// left out and said so, never reported as ours, no extend request is sent for it and nothing is
// charged for it. (Were a request sent, the proxy below fails it with a 503 that applied nothing.)
// A node:http proxy in front of the sandbox plays both the other process and the failing answer.
import { afterEach, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cents, type Kit, proxyctl, seedFleet, startKit, twoPools } from '../helpers/index.js';

let kit: Kit | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r) ?? r(undefined));
  await kit?.close();
});

it('an extension made by another process meanwhile is not reported, nor charged, as ours', async () => {
  kit = await startKit({ balance: 1000 });
  const [pool] = twoPools(kit);
  const [ref] = seedFleet(kit, [{ poolId: pool!, hoursLeft: 2, description: 'due' }]);
  const target = new URL(kit.sb.baseUrl);
  const headers = { 'x-api-key': kit.sb.apiKey, 'content-type': 'application/json' };
  let listed = false;
  let others: Promise<unknown> | undefined;
  let failed = false;
  proxy = createServer(async (req, res) => {
    const path = req.url ?? '';
    // The first request after the listing (the quote's, or a read of the unit) waits while another
    // process extends the unit: the listing's expiry is now stale.
    if (listed && !others)
      others = fetch(`${kit!.sb.baseUrl}/api/reseller/v1/units/${ref}/extend`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ period: '24h' }),
      });
    if (others) await others;
    if (req.method === 'GET' && /\/units\?/.test(path)) listed = true;
    if (req.method === 'POST' && path.endsWith('/extend') && !failed) {
      // Our extension fails without applying anything (a refunded 503).
      failed = true;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'upstream_unavailable', message: 'provider down, refunded' } }));
      return;
    }
    const up = request({ host: target.hostname, port: target.port, path, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
  const before = (await kit.state()).balanceUsd;
  const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');

  const r = await proxyctl(['units', 'extend', '--expiring-within', '24', '--period', '7d', '--yes', '--json'], {
    home: kit.home,
    env: { PROXYCTL_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, PROXYCTL_API_KEY: kit.sb.apiKey },
  });
  expect(others).toBeDefined();
  expect(failed).toBe(false);
  expect(JSON.parse(String(r.stdout))).toEqual([]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stderr)).toContain(`${ref} was extended elsewhere since the selection`);
  expect(String(r.stderr)).not.toMatch(/charged [\d.]+ USD/);
  // Only the other process's 24h was charged.
  expect(cents(before - (await kit.state()).balanceUsd)).toBe(cents(prices['24h']!));
});
