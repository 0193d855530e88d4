// Sandbox fidelity to the spec: the uptime window rules of §4.1, the Content-Type rule of §1 (and
// the client keeping it), and webhook X-Service-Timestamp in real time under a scaled clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { call, PREFIX, proxyctl, startFastSandbox, startScriptedServer, tempHome } from '../helpers/index.js';

const DAY = 86_400_000;
const home = tempHome();
let sb: Sandbox;
beforeAll(async () => {
  sb = await startFastSandbox();
});
afterAll(async () => {
  await sb.close();
  home.cleanup();
});

const sandboxNow = async () => Date.parse((await call(sb, 'GET', '/_sandbox/state')).body.now as string);

describe('uptime window (spec §4.1)', () => {
  it('day is ignored, not validated, when from or to is given', async () => {
    const now = await sandboxNow();
    const from = new Date(now - 3 * 3600_000).toISOString();
    for (const day of ['0', '31', 'abc']) {
      const r = await call(sb, 'GET', `/me/uptime?day=${day}&from=${from}`);
      expect(r.status, `day=${day}`).toBe(200);
      expect(r.body.from).toBe(from);
      const t = await call(sb, 'GET', `/me/uptime?day=${day}&to=${new Date(now - 3600_000).toISOString()}`);
      expect(t.status, `day=${day} with to`).toBe(200);
    }
    // Without from/to, day is still the window, and still checked.
    expect((await call(sb, 'GET', '/me/uptime?day=31')).status).toBe(400);
  });

  it('to in the future is clamped to now; a window over 30 days is clamped to the 30 days ending at to', async () => {
    const now = await sandboxNow();
    const future = await call(
      sb,
      'GET',
      `/me/uptime?from=${new Date(now - 3600_000).toISOString()}&to=${new Date(now + 5 * DAY).toISOString()}`,
    );
    expect(future.status).toBe(200);
    expect(Date.parse(future.body.to as string)).toBeLessThan(now + DAY);
    const to = new Date(now - DAY);
    const long = await call(sb, 'GET', `/me/uptime?from=${new Date(now - 90 * DAY).toISOString()}&to=${to.toISOString()}`);
    expect(long.status).toBe(200);
    expect(long.body.to).toBe(to.toISOString());
    expect(long.body.from).toBe(new Date(to.getTime() - 30 * DAY).toISOString());
  });

  it('openapi.json documents the choices', async () => {
    const doc = (await call(sb, 'GET', '/openapi.json')).body;
    const params = doc.paths[`${PREFIX}/me/uptime`].get.parameters as { name: string; description: string }[];
    expect(params.find((p) => p.name === 'day')!.description).toContain('ignored');
    expect(params.find((p) => p.name === 'from')!.description).toContain('clamped');
    expect(doc.info.description).toContain('invalid_content_type');
  });
});

describe('Content-Type (spec §1)', () => {
  const pool = () => sb.world.pools.find((p) => p.available)!.poolId;
  const post = (headers: Record<string, string>) =>
    fetch(`${sb.baseUrl}${PREFIX}/units`, {
      method: 'POST',
      headers: { 'x-api-key': sb.apiKey, ...headers },
      // A byte body: fetch adds no Content-Type of its own.
      body: Buffer.from(JSON.stringify({ poolId: pool(), period: '3h' })),
    });

  it('a body without Content-Type: application/json is 400 invalid_content_type, and nothing is bought', async () => {
    const before = await call(sb, 'GET', '/_sandbox/state');
    for (const headers of [
      {} as Record<string, string>,
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      const r = await post(headers);
      expect(r.status, JSON.stringify(headers)).toBe(400);
      const body = (await r.json()) as { error: { code: string; type: string; requestId: string } };
      expect(body.error).toMatchObject({
        code: 'invalid_content_type',
        type: 'invalid_request_error',
        requestId: r.headers.get('x-request-id'),
      });
    }
    const after = await call(sb, 'GET', '/_sandbox/state');
    expect(after.body.balanceUsd).toBe(before.body.balanceUsd);
    expect(after.body.units).toHaveLength(before.body.units.length);
    // With the type (and a charset parameter) the same body buys.
    expect((await post({ 'content-type': 'application/json; charset=utf-8' })).status).toBe(201);
    // Bodiless requests need no type.
    expect((await fetch(`${sb.baseUrl}${PREFIX}/account`, { headers: { 'x-api-key': sb.apiKey } })).status).toBe(200);
  });

  it('the client sends it on every request with a body (built binary against a recording server)', async () => {
    const seen = await startScriptedServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_1', 'x-api-version': '1.0.0' });
      res.end(JSON.stringify({ ok: true }));
    });
    try {
      const env = { PROXYCTL_BASE_URL: seen.url, PROXYCTL_API_KEY: 'sk_test_key_00000000000000' };
      const r = await proxyctl(['api', 'POST', '/webhook/test', '--data', '{"a":1}', '--json'], { home, env });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      const posts = seen.requests.filter((q) => q.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(posts[0]!.headers['content-type']).toBe('application/json');
      expect(posts[0]!.body).toBe('{"a":1}');
    } finally {
      await seen.close();
    }
  });
});

describe('X-Service-Timestamp under a scaled clock (spec §6.2)', () => {
  it('is real unix time, so a receiver that checks clock skew accepts it; occurredAt is sandbox time', async () => {
    const fast = await startFastSandbox({ timeScale: 3600 });
    // A receiver as a careful reseller writes it: refuse anything more than 5 minutes off its clock.
    const receiver = await startScriptedServer((req, res) => {
      const skew = Math.abs(Date.now() / 1000 - Number(req.headers['x-service-timestamp']));
      res.writeHead(skew <= 300 ? 204 : 400).end();
    });
    try {
      fast.advance(3 * 86400);
      expect((await call(fast, 'PATCH', '/webhook', { body: { url: `${receiver.url}/hook` } })).status).toBe(200);
      expect((await call(fast, 'POST', '/webhook/test')).status).toBe(202);
      await fast.deliveriesIdle();
      const [d] = fast.state().deliveries as { status: string; attempts: number; responseStatus: number; payload: string }[];
      expect(d).toMatchObject({ status: 'DELIVERED', attempts: 1, responseStatus: 204 });
      const sent = receiver.requests[0]!;
      const stamp = Number(sent.headers['x-service-timestamp']);
      const occurredAt = Date.parse((JSON.parse(sent.body) as { occurredAt: string }).occurredAt) / 1000;
      // Sandbox time is at least the 3 advanced days ahead of the header's real time.
      expect(occurredAt - stamp).toBeGreaterThanOrEqual(3 * 86400 - 1);
    } finally {
      await receiver.close();
      await fast.close();
    }
  });
});
