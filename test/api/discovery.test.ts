import { beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findOperations } from '../../src/api/discovery.js';
import { FAKE_API_KEY as KEY, type FakeApi, json, runMain, startFakeApi, tempHome, useFakeApi } from '../helpers/index.js';

/** An OpenAPI document that serves the three operations at other paths, as a real server may. */
const ALT_OPENAPI = {
  openapi: '3.1.0',
  servers: [{ url: '/api/reseller/v1' }],
  components: {
    schemas: {
      PinBody: { type: 'object', properties: { proxyUsername: { type: ['string', 'null'] } } },
      Usage: { allOf: [{ type: 'object', properties: { mode: { type: 'string' } } }, { properties: { totalMb: { type: 'number' } } }] },
    },
  },
  paths: {
    '/me': { get: { operationId: 'getMe' } },
    '/account/login-name': {
      post: {
        operationId: 'setLogin',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/PinBody' } } } },
      },
    },
    '/units/{id}': { get: { operationId: 'getUnit' } },
    '/units/{id}/consumption': {
      get: {
        operationId: 'unitConsumption',
        responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Usage' } } } } },
      },
    },
    '/webhook/deliveries': { get: { operationId: 'listDeliveries' } },
    '/webhook/ping': { post: { operationId: 'fireTestEvent', summary: 'Send a test event' } },
  },
};

describe('findOperations (the contract rules)', () => {
  it('finds the pin by its proxyUsername body, usage by its 200 shape, test by its name', () => {
    expect(findOperations(ALT_OPENAPI)).toEqual({
      pinUsername: { method: 'POST', path: '/account/login-name' },
      unitUsage: { method: 'GET', path: '/units/{proxyRef}/consumption' },
      webhookTest: { method: 'POST', path: '/webhook/ping' },
    });
  });

  it('accepts full paths, and usage named by its path', () => {
    const doc = { paths: { '/api/reseller/v1/units/{proxyRef}/traffic': { get: {} }, '/api/reseller/v1/webhook/send-test': { post: {} } } };
    expect(findOperations(doc)).toEqual({
      unitUsage: { method: 'GET', path: '/units/{proxyRef}/traffic' },
      webhookTest: { method: 'POST', path: '/webhook/send-test' },
    });
  });

  it('ignores near misses and garbage', () => {
    const doc = { paths: { '/units/{id}/usage': { post: {} }, '/webhook/test': { get: {} }, '/units/usage': { get: {} } } };
    expect(findOperations(doc)).toEqual({});
    expect(findOperations('nonsense')).toEqual({});
    expect(findOperations({ paths: [] })).toEqual({});
  });
});

describe('discover() cache', () => {
  it('reuses a fresh cache entry and asks the server again once the TTL has passed', async () => {
    const { discover, DISCOVERY_TTL_MS } = await import('../../src/api/discovery.js');
    const { ApiClient } = await import('../../src/api/client.js');
    let served = 0;
    const { startScriptedServer } = await import('../helpers/index.js');
    const s = await startScriptedServer((_req, res) => {
      served += 1;
      json(res, 200, ALT_OPENAPI);
    });
    const store = new Map<string, unknown>();
    const cache = {
      get: async <T>(k: string) => store.get(k) as T | undefined,
      set: async (k: string, v: unknown) => void store.set(k, v),
    };
    const mk = () =>
      new ApiClient({ baseUrl: s.url, apiKey: KEY, timeoutMs: 2000, env: {}, signal: new AbortController().signal, userAgent: 't', cache });
    try {
      let now = 1_000_000;
      expect((await discover(mk(), () => now)).webhookTest).toEqual({ method: 'POST', path: '/webhook/ping' });
      now += DISCOVERY_TTL_MS - 1;
      await discover(mk(), () => now);
      expect(served).toBe(1);
      now += 2;
      await discover(mk(), () => now);
      expect(served).toBe(2);
    } finally {
      await s.close();
    }
  });
});

describe('discovery in a command', () => {
  let openapiServed = ALT_OPENAPI as unknown;
  const fake = useFakeApi({
    route: (req, res, path) => {
      if (path === '/openapi.json') {
        if (openapiServed === 'broken') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"openapi": "3.1');
        } else json(res, 200, openapiServed);
        return true;
      }
      if (req.method === 'POST' && path === '/account/login-name') {
        json(res, 200, { proxyUsername: JSON.parse(req.body).proxyUsername });
        return true;
      }
      return false;
    },
  });
  const env = fake.env;
  const cfg = fake.cfg;
  let api: FakeApi;
  beforeEach(() => {
    api = fake.api();
  });

  it('uses the discovered path and caches it per base URL in the cache dir, not in the config file', async () => {
    let r = await runMain(['me', 'username', 'set', 'acme_01', '--json'], { env: env(), configDir: cfg.configDir });
    expect(r.code).toBe(0);
    expect(api.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      'GET /api/reseller/v1/openapi.json',
      'POST /api/reseller/v1/account/login-name',
    ]);
    const cache = JSON.parse(readFileSync(join(cfg.configDir, 'cache', 'discovery.json'), 'utf8')).entries;
    expect(existsSync(join(cfg.configDir, 'config.json'))).toBe(false);
    expect(cache[`discovery:${api.url}`].ops.pinUsername).toEqual({ method: 'POST', path: '/account/login-name' });
    api.requests.length = 0;
    r = await runMain(['me', 'username', 'clear'], { env: env(), configDir: cfg.configDir });
    expect(r.code).toBe(0);
    // Cached: no second look at openapi.json within the TTL.
    expect(api.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['POST /api/reseller/v1/account/login-name']);
  });

  it('falls back to the default path when openapi.json is unparsable', async () => {
    const other = tempHome();
    openapiServed = 'broken';
    try {
      const r = await runMain(['me', 'username', 'set', 'acme_02'], { env: env(), configDir: other.configDir });
      expect(r.code).toBe(0);
      expect(api.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
        'GET /api/reseller/v1/openapi.json',
        'PUT /api/reseller/v1/me/proxy-username',
      ]);
    } finally {
      openapiServed = ALT_OPENAPI;
      other.cleanup();
    }
  });
});

describe('the key never appears in output', () => {
  it('--debug traces method, URL, status, request id and timing, never the key', async () => {
    const api = await startFakeApi({
      // A hostile server that echoes the key back in an error message.
      route: (req, res, path) => {
        if (path !== '/echo') return false;
        json(res, 400, {
          error: { code: 'validation_error', message: `bad key ${String(req.headers['x-api-key'])}`, requestId: 'req_echo' },
        });
        return true;
      },
    });
    const cfg = tempHome();
    try {
      const env = { PROXYCTL_API_KEY: KEY, PROXYCTL_BASE_URL: api.url };
      const r = await runMain(['--debug', 'pools', 'get', 'DE-3'], { env, configDir: cfg.configDir });
      expect(r.code).toBe(0);
      expect(r.err).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/reseller\/v1\/pools\/DE-3/);
      expect(r.err).toMatch(/← 200 .*request-id=req_test_\w+ \d+ms/);
      const outputs = [r.out, r.err];
      for (const argv of [
        ['--debug', 'api', 'GET', '/echo'],
        ['--debug', 'api', 'GET', '/echo', '--json'],
        ['--debug', 'me', 'username', 'set', 'okname'],
      ]) {
        const x = await runMain(argv, { env, configDir: cfg.configDir });
        outputs.push(x.out, x.err);
      }
      for (const o of outputs) expect(o).not.toContain(KEY);
    } finally {
      await api.close();
      cfg.cleanup();
    }
  });
});

describe('discovery against the real sandbox description', () => {
  it.each([
    [
      false,
      {
        pinUsername: { method: 'PUT', path: '/me/proxy-username' },
        unitUsage: { method: 'GET', path: '/units/{proxyRef}/usage' },
        webhookTest: { method: 'POST', path: '/webhook/test' },
      },
    ],
    [
      true,
      {
        pinUsername: { method: 'POST', path: '/account/fixed-login' },
        unitUsage: { method: 'GET', path: '/units/{proxyRef}/traffic' },
        webhookTest: { method: 'POST', path: '/webhook/send-test' },
      },
    ],
  ])('altPaths=%s: all three operations are found where the sandbox serves them', async (altPaths, expected) => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const { resolveOperation } = await import('../../src/api/operations.js');
    const { ApiClient } = await import('../../src/api/client.js');
    const sb = await startSandbox({ port: 0, altPaths });
    try {
      const api = new ApiClient({
        baseUrl: sb.baseUrl,
        apiKey: sb.apiKey,
        timeoutMs: 5000,
        env: {},
        signal: new AbortController().signal,
        userAgent: 't',
      });
      expect({
        pinUsername: await resolveOperation(api, 'pinUsername'),
        unitUsage: await resolveOperation(api, 'unitUsage'),
        webhookTest: await resolveOperation(api, 'webhookTest'),
      }).toEqual(expected);
    } finally {
      await sb.close();
    }
  });
});
