import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { parseReset } from '../../src/api/rate-limiter.js';
import { parseRetryAfter } from '../../src/api/response.js';
import { raw } from '../../src/api/shapes.js';
import { json, type ScriptedServer, startScriptedServer } from '../helpers/index.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk_test_secret_key_123456';

/**
 * A client whose waits take no time: `sleep` moves its clock on by what it was asked to wait, so a
 * rate budget waiting for a window's end sees it come at once (with only `sleep` faked, the budget
 * looked at the real clock again and again until the window had really passed).
 */
function client(url: string, extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const slept: number[] = [];
  let clock = Date.now();
  const c = new ApiClient({
    baseUrl: url,
    apiKey: KEY,
    timeoutMs: 2000,
    env: {},
    signal: new AbortController().signal,
    userAgent: 'proxyctl/test node/20',
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    random: () => 0.5,
    ...extra,
  });
  return { c, slept };
}

describe('ApiClient', () => {
  it('sends the key, user agent and JSON body, and returns the parsed body', async () => {
    server = await startScriptedServer((req, res) => json(res, 201, { ok: true, echo: JSON.parse(req.body) }));
    const { c } = client(server.url);
    const r = await c.request('POST', '/units', raw, { body: { poolId: 'US-1' } });
    expect(r.status).toBe(201);
    expect(r.data).toEqual({ ok: true, echo: { poolId: 'US-1' } });
    const sent = server.requests[0]!;
    expect(sent.url).toBe('/api/reseller/v1/units');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['user-agent']).toBe('proxyctl/test node/20');
  });

  it('turns the error envelope into a typed ApiError, whatever its type says', async () => {
    server = await startScriptedServer((_req, res) =>
      json(res, 404, { error: { type: 'invalid_request_error', code: 'unit_not_found', message: 'No such unit', requestId: 'req_42' } }),
    );
    const { c } = client(server.url);
    const err = await c.get('/units/PRX-9', raw).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'unit_not_found', requestId: 'req_42', message: 'No such unit' });
    expect(server.requests).toHaveLength(1);
  });

  it('a 2xx with a truncated body is a service error, not a crash', async () => {
    server = await startScriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[{"poolId":"US-');
    });
    const { c } = client(server.url, { retryBudget: 0 });
    const err = await c.get('/pools', raw).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('bad_response');
  });

  it('retries reads on 5xx with full-jitter backoff, at most 3 attempts', async () => {
    server = await startScriptedServer((_req, res) => json(res, 502, { error: { code: 'bad_gateway', message: 'x' } }));
    const { c, slept } = client(server.url);
    const err = await c.get('/pools', raw).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502 });
    expect(server.requests).toHaveLength(3);
    expect(slept).toEqual([250, 500]);
  });

  it('never retries a write on 5xx', async () => {
    server = await startScriptedServer((_req, res) => json(res, 500, { error: { code: 'internal', message: 'x' } }));
    const { c } = client(server.url);
    await expect(c.request('POST', '/units/PRX-1/extend', raw, { body: { period: '7d' } })).rejects.toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('waits Retry-After on 429 and then succeeds', async () => {
    let n = 0;
    server = await startScriptedServer((_req, res) => {
      n += 1;
      if (n === 1) return json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '2' });
      return json(res, 200, { prices: {} });
    });
    const { c, slept } = client(server.url);
    expect(await c.get('/prices', raw)).toEqual({ prices: {} });
    expect(slept.some((ms) => ms >= 2000 && ms <= 2300)).toBe(true);
  });

  it('gives up with exit-7 material when Retry-After exceeds the maximum wait', async () => {
    server = await startScriptedServer((_req, res) =>
      json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '600' }),
    );
    const { c } = client(server.url, { maxRetryWaitMs: 30_000 });
    const err = (await c.get('/prices', raw).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(429);
    expect(err.retryAfter).toBe(600);
    expect(err.hint).toContain('600s');
    expect(server.requests).toHaveLength(1);
  });

  it('an exhausted uptime budget does not hold back other requests', async () => {
    server = await startScriptedServer((req, res) => {
      if (req.url.startsWith('/api/reseller/v1/me/uptime')) {
        return json(
          res,
          429,
          { error: { code: 'rate_limited', message: 'uptime budget' } },
          { 'retry-after': '30', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' },
        );
      }
      json(
        res,
        200,
        { ok: true },
        { 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '118', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60) },
      );
    });
    const { c, slept } = client(server.url, { maxRetryWaitMs: 1000 });
    await expect(c.get('/me/uptime', raw, {}, { budget: 'uptime' })).rejects.toMatchObject({ status: 429, retryAfter: 30 });
    expect(await c.get('/me', raw)).toEqual({ ok: true });
    expect(await c.get('/account', raw)).toEqual({ ok: true });
    expect(slept).toEqual([]);
  });

  it('pages through a collection until hasNext is false', async () => {
    server = await startScriptedServer((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      json(res, 200, {
        data: [{ n: page }],
        pagination: { page, pageSize: 1, totalItems: 3, totalPages: 3, hasNext: page < 3, hasPrev: page > 1 },
      });
    });
    const { c } = client(server.url);
    const items: unknown[] = [];
    for await (const it of c.all('/units', raw, { pageSize: 1 })) items.push(it);
    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('follows the delivery log pagination (total/totalPages, no hasNext)', async () => {
    server = await startScriptedServer((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      json(res, 200, { data: [{ id: `d${page}` }], pagination: { page, pageSize: 1, total: 2, totalPages: 2 } });
    });
    const { c } = client(server.url);
    const items: unknown[] = [];
    for await (const it of c.all('/webhook/deliveries', raw)) items.push(it);
    expect(items).toEqual([{ id: 'd1' }, { id: 'd2' }]);
  });

  it('redacts the key in its debug trace even if a server echoes it', async () => {
    server = await startScriptedServer((req, res) => json(res, 200, { echoed: req.headers['x-api-key'] }, { 'x-request-id': KEY }));
    const lines: string[] = [];
    const { c } = client(server.url, { trace: (l) => lines.push(l) });
    await c.get('/me', raw);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines.some((l) => l.startsWith('→ GET http://127.0.0.1:'))).toBe(true);
    expect(lines.some((l) => /^← 200 GET .* request-id=\[REDACTED\] \d+ms$/.test(l))).toBe(true);
  });

  it('a refused connection is a NetworkError that provably never left', async () => {
    const s = await startScriptedServer((_req, res) => json(res, 200, {}));
    const url = s.url;
    await s.close();
    const { c } = client(url, { retryBudget: 0 });
    const err = (await c
      .request('POST', '/units/PRX-1/extend', raw, { body: {}, retry: 'never' })
      .catch((e: unknown) => e)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.notSent).toBe(true);
  });
});

describe('X-RateLimit-Reset parsing', () => {
  it('reads epoch seconds and seconds-from-now', () => {
    const now = 1_700_000_000_000;
    expect(parseReset('1700000060', now)).toBe(1_700_000_060_000);
    expect(parseReset('30', now)).toBe(now + 30_000);
    expect(parseReset('soon', now)).toBeUndefined();
    expect(parseReset(undefined, now)).toBeUndefined();
  });
});

describe('Retry-After parsing', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('later', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
