// Spec §1 headers, §5 authentication, §7 error envelope, unknown paths and strict methods.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { apiRoutes } from '../../src/sandbox/routes/index.js';
import { call, errorOf, PREFIX, startFastSandbox } from '../helpers/index.js';

let sb: Sandbox;
beforeAll(async () => {
  // A large budget: these loops touch every operation; the 120/min default is tested below.
  sb = await startFastSandbox({ rateLimit: 1000 });
});
afterAll(() => sb.close());

describe('authentication (§5)', () => {
  it('the main key is accepted', async () => {
    const r = await call(sb, 'GET', '/account');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ balanceUsd: 1000, discountPercent: 15, resellerEnabled: true });
  });

  it.each([
    ['missing', null],
    ['unknown', 'sk_live_nope'],
    ['empty', ''],
  ])('a %s key is 401 invalid_api_key', async (_label, key) => {
    const r = await call(sb, 'GET', '/me', { key });
    expect(r.status).toBe(401);
    expect(errorOf(r)).toMatchObject({ code: 'invalid_api_key', type: 'authentication_error' });
  });

  it('the reseller-disabled key is 403 reseller_disabled on every operation', async () => {
    for (const [m, p] of [
      ['GET', '/me'],
      ['GET', '/pools'],
      ['POST', '/units'],
      ['GET', '/webhook'],
    ] as const) {
      const r = await call(sb, m, p, { key: sb.disabledApiKey, body: m === 'POST' ? { poolId: 'US-11', period: '3h' } : undefined });
      expect(r.status).toBe(403);
      expect(errorOf(r)).toMatchObject({ code: 'reseller_disabled', type: 'permission_error' });
    }
  });

  it('every operation answers 401 without a key and 403 with the disabled key', async () => {
    const routes = apiRoutes(false);
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) {
      const path = r.path.replace('{proxyRef}', 'PRX-1').replace('{poolId}', 'US-11');
      const none = await call(sb, r.method, path, { key: null, body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
      expect(none.status, `${r.method} ${path}`).toBe(401);
      expect(errorOf(none).code).toBe('invalid_api_key');
      const off = await call(sb, r.method, path, {
        key: sb.disabledApiKey,
        body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      });
      expect(off.status, `${r.method} ${path}`).toBe(403);
      expect(errorOf(off).code).toBe('reseller_disabled');
    }
  });

  it('auth is checked before the path: an unknown API path without a key is 401', async () => {
    const r = await call(sb, 'GET', '/nope', { key: null });
    expect(r.status).toBe(401);
  });
});

describe('headers on every response (§1, §8)', () => {
  it('success and error responses carry X-Request-Id (unique), X-API-Version and the rate headers', async () => {
    const responses = await Promise.all([
      call(sb, 'GET', '/prices'),
      call(sb, 'GET', '/prices'),
      call(sb, 'GET', '/me', { key: null }),
      call(sb, 'GET', '/units/PRX-999'),
    ]);
    const ids = new Set<string>();
    for (const r of responses) {
      const id = r.headers.get('x-request-id');
      expect(id).toMatch(/^req_/);
      ids.add(id!);
      expect(r.headers.get('x-api-version')).toBe('1.0.0');
      expect(Number(r.headers.get('x-ratelimit-limit'))).toBe(1000);
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
      expect(r.headers.get('retry-after')).toBeNull();
    }
    expect(ids.size).toBe(responses.length);
  });

  it('the default account-wide budget is 120 per window', async () => {
    const d = await startFastSandbox();
    try {
      expect((await call(d, 'GET', '/prices')).headers.get('x-ratelimit-limit')).toBe('120');
      expect((await call(d, 'GET', '/me/uptime')).headers.get('x-ratelimit-limit')).toBe('10');
    } finally {
      await d.close();
    }
  });

  it('X-RateLimit-Remaining counts down', async () => {
    const a = Number((await call(sb, 'GET', '/prices')).headers.get('x-ratelimit-remaining'));
    const b = Number((await call(sb, 'GET', '/prices')).headers.get('x-ratelimit-remaining'));
    expect(b).toBe(a - 1);
  });
});

describe('errors and routing (§7)', () => {
  it('malformed JSON is 400 invalid_json', async () => {
    const r = await call(sb, 'POST', '/units', { rawBody: '{"poolId": "US-11",' });
    expect(r.status).toBe(400);
    expect(errorOf(r)).toMatchObject({ code: 'invalid_json', type: 'invalid_request_error' });
  });

  it('a body that is not an object is 400 validation_error', async () => {
    const r = await call(sb, 'POST', '/units', { body: [1, 2] });
    expect(r.status).toBe(400);
    expect(errorOf(r).code).toBe('validation_error');
  });

  it('an unknown path is 404 not_found', async () => {
    const r = await call(sb, 'GET', '/nothing/here');
    expect(r.status).toBe(404);
    expect(errorOf(r)).toMatchObject({ code: 'not_found', type: 'not_found_error' });
    const outside = await fetch(`${sb.baseUrl}/elsewhere`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('methods are strict: a wrong method is 405 with Allow', async () => {
    const r = await call(sb, 'PUT', '/units');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST');
    expect(errorOf(r).code).toBe('method_not_allowed');
    const d = await call(sb, 'POST', '/units/PRX-1');
    expect(d.status).toBe(405);
    expect(d.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('every path refuses the methods it does not serve with 405 and an exact Allow', async () => {
    const byPath = new Map<string, string[]>();
    const routes = apiRoutes(false);
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method]);
    for (const [p, methods] of byPath) {
      const path = p.replace('{proxyRef}', 'PRX-1').replace('{poolId}', 'US-11');
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((x) => !methods.includes(x))) {
        const r = await call(sb, m, path, { body: m === 'GET' || m === 'DELETE' ? undefined : {} });
        expect(r.status, `${m} ${path}`).toBe(405);
        expect(r.headers.get('allow')).toBe(methods.join(', '));
      }
    }
  });

  it('GET on /units lists rather than creates', async () => {
    const r = await call(sb, 'GET', '/units');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    expect((await call(sb, 'GET', '/account')).body.balanceUsd).toBe(1000);
  });

  it('openapi.json is served without a key', async () => {
    const r = await call(sb, 'GET', '/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('openapi.json refuses other methods with 405 and Allow: GET, like every path (with or without a key)', async () => {
    for (const key of [undefined, null]) {
      for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const r = await call(sb, m, '/openapi.json', { key, body: m === 'DELETE' ? undefined : {} });
        expect(r.status, `${m} ${String(key)}`).toBe(405);
        expect(r.headers.get('allow')).toBe('GET');
        expect(errorOf(r)).toMatchObject({ code: 'method_not_allowed', type: 'invalid_request_error' });
      }
    }
    const head = await call(sb, 'HEAD', '/openapi.json', { key: null });
    expect([head.status, head.text]).toEqual([200, '']);
    expect((await call(sb, 'GET', '/openapi.json/', { key: null })).body.openapi).toBe('3.1.0');
  });
});

describe("a request Node's HTTP parser rejects (§1: every response carries X-Request-Id)", () => {
  /** Sends raw bytes and reads the answer until the server closes. */
  function raw(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const sock = connect(sb.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      sock.on('data', (c: Buffer) => chunks.push(c));
      sock.on('error', reject);
      sock.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      sock.end(bytes);
    });
  }
  const parse = (text: string) => {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
  };

  it.each([
    ['a malformed header line', `GET ${PREFIX}/me HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n`, 400, 'malformed_request'],
    ['a malformed request line', 'GET\r\n\r\n', 400, 'malformed_request'],
    ['headers over the limit', `GET ${PREFIX}/me HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(70_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ])('%s: the error envelope with X-Request-Id, X-API-Version and the rate headers', async (_label, bytes, status, code) => {
    const r = parse(await raw(bytes));
    expect(r.status).toBe(status);
    expect(r.headers['x-request-id']).toMatch(/^req_/);
    expect(r.headers['x-api-version']).toBe('1.0.0');
    expect(r.headers['x-ratelimit-limit']).toBe('1000');
    expect(r.body).toEqual({
      error: { type: 'invalid_request_error', code, message: expect.any(String), requestId: r.headers['x-request-id'] },
    });
  });
});
