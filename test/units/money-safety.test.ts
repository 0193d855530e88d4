// The money-safety core against a scripted server: which key every attempt carries, and when a
// retry happens at all.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { type ApiError, NetworkError } from '../../src/errors.js';
import { createSafely } from '../../src/units/create-safely.js';
import { extendSafely } from '../../src/units/extend-safely.js';
import { deriveIdempotencyKey } from '../../src/units/idempotency.js';
import { json, type ScriptedServer, startScriptedServer } from '../helpers/index.js';

const BASE = '3f2b8c1e-9d4a-4c7e-8b21-5a6f0e9d1c34';
const UNIT = {
  proxyRef: 'PRX-1',
  ip: '203.0.113.1',
  port: 10001,
  credentials: { username: 'u', password: 'p' },
  expiresAt: '2030-01-01T00:00:00.000Z',
};
const body = { poolId: 'US-1', period: '7d' };

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(url: string): ApiClient {
  return new ApiClient({
    baseUrl: url,
    apiKey: 'k',
    timeoutMs: 5000,
    env: {},
    signal: new AbortController().signal,
    userAgent: 't',
    sleep: async () => {},
  });
}

const keysOf = (s: ScriptedServer) => s.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key']);
const fail = (_status: number, code: string, requestId: string) => ({ error: { type: 'service_error', code, message: code, requestId } });

describe('deriveIdempotencyKey', () => {
  it('is a deterministic v5-shaped UUID per base, item and generation', () => {
    const k = deriveIdempotencyKey(BASE, 0, 0);
    expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deriveIdempotencyKey(BASE, 0, 0)).toBe(k);
    const all = new Set([
      k,
      deriveIdempotencyKey(BASE, 1, 0),
      deriveIdempotencyKey(BASE, 0, 1),
      deriveIdempotencyKey(BASE.replace('3f', '4f'), 0, 0),
    ]);
    expect(all.size).toBe(4);
  });
});

describe('createSafely', () => {
  it('retries a lost answer with the same key and returns the replayed unit', async () => {
    let n = 0;
    server = await startScriptedServer((_req, res) => {
      if (++n === 1) return void res.socket?.destroy();
      json(res, 201, UNIT, { 'idempotent-replayed': 'true' });
    });
    const out = await createSafely(client(server.url), body, { baseKey: BASE, index: 2, signal: new AbortController().signal, delayMs: 1 });
    expect(out.ok).toBe(true);
    const k = deriveIdempotencyKey(BASE, 2, 0);
    expect(keysOf(server)).toEqual([k, k]);
  });

  it('waits out 409 in-flight with the same key', async () => {
    let n = 0;
    server = await startScriptedServer((_req, res) =>
      ++n < 3 ? json(res, 409, fail(409, 'idempotency_in_flight', `r${n}`)) : json(res, 201, UNIT),
    );
    const out = await createSafely(client(server.url), body, {
      baseKey: BASE,
      index: 0,
      signal: new AbortController().signal,
      delayMs: 1,
      sleep: async () => {},
    });
    expect(out.ok).toBe(true);
    expect(new Set(keysOf(server)).size).toBe(1);
    expect(keysOf(server)).toHaveLength(3);
  });

  it('takes the next key at once after a refunded 503: that key bought nothing and a replaying server would repeat its failure', async () => {
    // A server that remembers failures: key g0 failed (r1) and would replay it; g1 succeeds.
    const stored = new Map<string, string>();
    let fresh = 0;
    server = await startScriptedServer((req, res) => {
      const key = String(req.headers['idempotency-key']);
      if (stored.has(key)) return json(res, 503, fail(503, 'upstream_unreachable', stored.get(key)!));
      if (key === deriveIdempotencyKey(BASE, 0, 0)) {
        stored.set(key, `r${++fresh}`);
        return json(res, 503, fail(503, 'upstream_unreachable', stored.get(key)!));
      }
      json(res, 201, UNIT);
    });
    const out = await createSafely(client(server.url), body, { baseKey: BASE, index: 0, signal: new AbortController().signal, delayMs: 1 });
    expect(out).toMatchObject({ ok: true, idempotencyKey: deriveIdempotencyKey(BASE, 0, 1) });
    expect(keysOf(server)).toEqual([deriveIdempotencyKey(BASE, 0, 0), deriveIdempotencyKey(BASE, 0, 1)]);
  });

  it('a 503 that is not the refunded upstream failure is retried with the same key: it may have bought', async () => {
    let n = 0;
    server = await startScriptedServer((_req, res) =>
      ++n < 3 ? json(res, 503, fail(503, 'service_unavailable', `g${n}`)) : json(res, 201, UNIT),
    );
    const out = await createSafely(client(server.url), body, { baseKey: BASE, index: 0, signal: new AbortController().signal, delayMs: 1 });
    expect(out).toMatchObject({ ok: true, replayed: false });
    expect(keysOf(server)).toEqual(Array(3).fill(deriveIdempotencyKey(BASE, 0, 0)));
  });

  it('a re-run with the same base key gets past the failures a replaying server stored in the first run', async () => {
    // A server that remembers failures per key, and a pool that is down in run 1 and back in run 2.
    const stored = new Map<string, string>();
    let down = true;
    let n = 0;
    server = await startScriptedServer((req, res) => {
      const key = String(req.headers['idempotency-key']);
      if (stored.has(key)) return json(res, 503, fail(503, 'upstream_unreachable', stored.get(key)!));
      if (down) {
        stored.set(key, `r${++n}`);
        return json(res, 503, fail(503, 'upstream_unreachable', stored.get(key)!));
      }
      json(res, 201, UNIT);
    });
    // The config-dir cache outlives the process: the same object stands for it across both runs.
    const values = new Map<string, unknown>();
    const cache = {
      get: async <T>(k: string) => values.get(k) as T | undefined,
      set: async (k: string, v: unknown) => void values.set(k, v),
    };
    const api = () =>
      new ApiClient({
        baseUrl: server!.url,
        apiKey: 'k',
        timeoutMs: 5000,
        env: {},
        signal: new AbortController().signal,
        userAgent: 't',
        sleep: async () => {},
        records: cache,
      });
    const first = await createSafely(api(), body, { baseKey: BASE, index: 0, signal: new AbortController().signal, delayMs: 1 });
    expect(first.ok).toBe(false);
    const boughtBefore = server.requests.length;
    down = false;
    const again = await createSafely(api(), body, { baseKey: BASE, index: 0, signal: new AbortController().signal, delayMs: 1 });
    expect(again).toMatchObject({ ok: true, unit: { proxyRef: 'PRX-1' } });
    // It resumed where run 1 stopped instead of replaying run 1's whole chain first.
    expect(server.requests.length - boughtBefore).toBeLessThanOrEqual(3);
  });

  it('a fresh key for each refunded failure, and gives up after a few', async () => {
    let n = 0;
    server = await startScriptedServer((_req, res) => json(res, 503, fail(503, 'upstream_unreachable', `fresh-${++n}`)));
    const out = await createSafely(client(server.url), body, { baseKey: BASE, index: 0, signal: new AbortController().signal, delayMs: 1 });
    expect(out.ok).toBe(false);
    expect((out as { error: ApiError }).error.status).toBe(503);
    expect(keysOf(server)).toEqual([0, 1, 2, 3].map((g) => deriveIdempotencyKey(BASE, 0, g)));
  });

  it('does not retry a 402', async () => {
    server = await startScriptedServer((_req, res) =>
      json(res, 402, { error: { code: 'insufficient_balance', message: 'no', required: 5, requestId: 'x' } }),
    );
    const out = await createSafely(client(server.url), body, { baseKey: BASE, index: 0, signal: new AbortController().signal, delayMs: 1 });
    expect(out.ok).toBe(false);
    expect(server.requests).toHaveLength(1);
  });
});

describe('extendSafely', () => {
  const unitAt = (expiresAt: string) => ({ ...UNIT, expiresAt });

  it('treats a lost answer as applied when the expiry moved', async () => {
    let expires = '2030-01-01T00:00:00.000Z';
    server = await startScriptedServer((req, res) => {
      if (req.method === 'GET') return json(res, 200, unitAt(expires));
      expires = '2030-01-08T00:00:00.000Z';
      res.socket?.destroy();
    });
    const r = await extendSafely(client(server.url), { ref: 'PRX-1', period: '7d' });
    expect(r).toEqual({ proxyRef: 'PRX-1', expiresAt: '2030-01-08T00:00:00.000Z', extended: true });
    expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  it('says plainly it was not extended when the expiry did not move, without retrying', async () => {
    server = await startScriptedServer((req, res) =>
      req.method === 'GET' ? json(res, 200, unitAt('2030-01-01T00:00:00.000Z')) : json(res, 502, fail(502, 'bad_gateway', 'z')),
    );
    await expect(extendSafely(client(server.url), { ref: 'PRX-1', period: '7d' })).rejects.toThrow(/PRX-1 was not extended/);
    expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  it('says it cannot tell when the unit cannot be read back', async () => {
    let gets = 0;
    server = await startScriptedServer((req, res) => {
      if (req.method === 'GET' && ++gets === 1) return json(res, 200, unitAt('2030-01-01T00:00:00.000Z'));
      res.socket?.destroy();
    });
    const err = await extendSafely(client(server.url), { ref: 'PRX-1', period: '7d' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('extend_unknown');
    expect((err as NetworkError).message).toContain('PRX-1');
  });
});

describe('createSafely after a lost answer', () => {
  it('a 429 that outlasts the waits does not claim the lost attempt bought nothing', async () => {
    let n = 0;
    server = await startScriptedServer((_req, res) => {
      if (++n === 1) return void res.socket?.destroy();
      json(res, 429, { error: { code: 'rate_limited', message: 'slow down', requestId: `q${n}` } }, { 'retry-after': '999' });
    });
    const out = await createSafely(client(server.url), body, { baseKey: BASE, index: 0, signal: new AbortController().signal, delayMs: 1 });
    expect(out.ok).toBe(false);
    const err = (out as { error: NetworkError }).error;
    expect(err.code).toBe('outcome_unknown');
    expect(err.message).toContain(`--idempotency-key ${BASE}`);
  });
});
