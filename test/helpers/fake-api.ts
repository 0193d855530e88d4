// Canned account and catalogue answers on the scripted server, for the in-process command tests
// that assert these exact values (and shapes the sandbox would never produce). New tests of
// behaviour use the sandbox (./sandbox.ts, ./sandbox-kit.ts) instead.
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { tempHome } from './cli.js';
import { runMain } from './in-process.js';
import { apiError as err, json, startScriptedServer, type RecordedRequest, type ScriptedServer } from './scripted-server.js';

export const FAKE_API_KEY = 'pk_live_CLIENT_TEST_9f3b7e1c2d4a';
export const FAKE_API_DISABLED_KEY = 'pk_live_DISABLED_5e6f7a8b';
const P = '/api/reseller/v1';

export const FAKE_PRICES = { '3h': 0.9, '12h': 2.1, '24h': 3.5, '7d': 14, '30d': 45 };
export const FAKE_POOLS = [
  { poolId: 'DE-3', provider: 'Telekom', country: 'DE', state: null, rotation: null, available: true, prices: FAKE_PRICES },
  {
    poolId: 'US-12',
    provider: 'Verizon',
    country: 'US',
    state: 'texas',
    rotation: '10m',
    available: false,
    prices: FAKE_PRICES,
    tier: 'pro',
  },
];

export interface FakeApiOptions {
  /** Extra routes tried first; return true when handled. */
  route?: (req: RecordedRequest, res: ServerResponse, path: string) => boolean;
  openapi?: unknown;
}

export async function startFakeApi(opts: FakeApiOptions = {}): Promise<ScriptedServer & { apiRequests(): RecordedRequest[] }> {
  let pinned: string | null = null;
  const server = await startScriptedServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = url.pathname.startsWith(P) ? url.pathname.slice(P.length) : url.pathname;
    if (opts.route?.(req, res, path)) return;
    const key = req.headers['x-api-key'];
    if (key === FAKE_API_DISABLED_KEY) return err(res, 403, 'reseller_disabled', 'Reseller mode is not enabled');
    if (key !== FAKE_API_KEY) return err(res, 401, 'invalid_api_key', 'Invalid API key');
    const q = url.searchParams;
    if (req.method === 'GET' && path === '/me') {
      return json(res, 200, {
        email: 'r@example.com',
        balanceUsd: 120.5,
        discountPercent: 15,
        resellerEnabled: true,
        units: { active: 2, total: 5 },
        prices: FAKE_PRICES,
        webhook: { url: null, enabled: false },
        loyaltyTier: 'gold',
      });
    }
    if (req.method === 'GET' && path === '/account')
      return json(res, 200, { balanceUsd: 120.5, discountPercent: 15, resellerEnabled: true });
    if (req.method === 'GET' && path === '/me/uptime') {
      return json(res, 200, {
        from: '2026-11-20T10:00:00.000Z',
        to: '2026-11-21T10:00:00.000Z',
        slotsPerDay: 288,
        uptimePercent: 97.5,
        slotsUp: 561,
        slotsDown: 14,
        slotsExcluded: 1,
        units: [
          {
            proxyRef: 'PRX-1',
            poolId: 'US-12',
            from: '2026-11-20T10:00:00.000Z',
            to: '2026-11-21T10:00:00.000Z',
            uptimePercent: 100,
            slotsUp: 288,
            slotsDown: 0,
            slotsExcluded: 0,
          },
          {
            proxyRef: 'PRX-2',
            poolId: 'DE-3',
            from: '2026-11-20T10:00:00.000Z',
            to: '2026-11-21T10:00:00.000Z',
            uptimePercent: 95.1,
            slotsUp: 273,
            slotsDown: 14,
            slotsExcluded: 1,
          },
        ],
      });
    }
    if (req.method === 'PUT' && path === '/me/proxy-username') {
      pinned = (JSON.parse(req.body) as { proxyUsername: string | null }).proxyUsername;
      return json(res, 200, { proxyUsername: pinned });
    }
    if (req.method === 'GET' && path === '/prices') return json(res, 200, { prices: FAKE_PRICES });
    if (req.method === 'GET' && path === '/pools') {
      let data = FAKE_POOLS;
      for (const f of ['provider', 'country', 'state', 'rotation'] as const) {
        const v = q.get(f);
        if (v !== null) data = data.filter((p) => p[f] === v);
      }
      return json(res, 200, { data, prices: FAKE_PRICES });
    }
    const pool = /^\/pools\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && pool) {
      const found = FAKE_POOLS.find((p) => p.poolId === decodeURIComponent(pool[1]!));
      return found ? json(res, 200, found) : err(res, 404, 'pool_not_found', 'Pool not found');
    }
    if (req.method === 'GET' && path === '/providers')
      return json(res, 200, {
        data: [
          { provider: 'Telekom', poolCount: 1 },
          { provider: 'Verizon', poolCount: 1 },
        ],
      });
    if (req.method === 'GET' && path === '/countries')
      return json(res, 200, {
        data: [
          { country: 'DE', name: 'Germany', poolCount: 1 },
          { country: 'US', name: 'United States', poolCount: 1 },
        ],
      });
    if (req.method === 'GET' && path === '/states') {
      const all = [{ country: 'US', state: 'texas', poolCount: 1 }];
      const c = q.get('country');
      return json(res, 200, { data: c ? all.filter((s) => s.country === c) : all });
    }
    if (req.method === 'GET' && path === '/openapi.json') {
      if (opts.openapi === undefined) return err(res, 404, 'not_found', 'no description');
      return json(res, 200, opts.openapi);
    }
    return err(res, 404, 'not_found', `no route ${req.method} ${path}`);
  });
  return Object.assign(server, { apiRequests: () => server.requests.filter((r) => r.url.startsWith(P)), pinned: () => pinned });
}

export type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;

/**
 * Registers suite hooks: one fake API and one config dir for the suite, the request log cleared
 * after each test. `cli` runs a command with the key and base URL in the environment.
 */
export function useFakeApi(opts: FakeApiOptions = {}) {
  const cfg = tempHome();
  const box: { api?: FakeApi } = {};
  beforeAll(async () => {
    box.api = await startFakeApi(opts);
  });
  afterAll(async () => {
    await box.api?.close();
    cfg.cleanup();
  });
  afterEach(() => {
    if (box.api) box.api.requests.length = 0;
  });
  const api = () => box.api!;
  return {
    api,
    cfg,
    env: () => ({ PROXYCTL_API_KEY: FAKE_API_KEY, PROXYCTL_BASE_URL: api().url }),
    cli: (argv: string[], extra: Record<string, string | undefined> = {}, tty = false) =>
      runMain(argv, { env: { PROXYCTL_API_KEY: FAKE_API_KEY, PROXYCTL_BASE_URL: api().url, ...extra }, configDir: cfg.configDir, tty }),
  };
}
