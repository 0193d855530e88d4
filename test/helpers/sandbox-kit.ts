// An in-process sandbox with the built binary pointed at it through the environment, and the
// server's own view of its state for assertions: the set-up of most end-to-end CLI tests.
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { proxyctl, tempHome, type TempHome } from './cli.js';
import { placement } from '../../src/sandbox/units-model.js';
import type { UnitRecord } from '../../src/sandbox/state.js';

export interface Kit {
  sb: Sandbox;
  home: TempHome;
  run(args: string[], extra?: Partial<Omit<Parameters<typeof proxyctl>[1], 'home'>>): ReturnType<typeof proxyctl>;
  state(): Promise<SandboxState>;
  control(path: string, body: unknown): Promise<unknown>;
  api<T>(path: string): Promise<T>;
  close(): Promise<void>;
}

export interface SandboxState {
  balanceUsd: number;
  units: {
    proxyRef: string;
    poolId: string;
    status: string;
    expiresAt: string;
    lastExtended: string | null;
    pricePaid: number;
    releasedAt: string | null;
    ip: string;
    port: number;
    credentials: { username: string; password: string } | null;
  }[];
}

export async function startKit(opts: SandboxOptions = {}): Promise<Kit> {
  const sb = await startSandbox({ port: 0, host: '127.0.0.1', ...opts });
  const home = tempHome();
  const headers = { 'x-api-key': sb.apiKey, 'content-type': 'application/json' };
  return {
    sb,
    home,
    run: (args, extra = {}) =>
      proxyctl(args, { ...extra, home, env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey, ...(extra.env ?? {}) } }),
    state: async () => (await (await fetch(`${sb.baseUrl}/_sandbox/state`, { headers })).json()) as SandboxState,
    control: async (path, body) => {
      const r = await fetch(`${sb.baseUrl}/_sandbox${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!r.ok) throw new Error(`control ${path}: ${r.status} ${await r.text()}`);
      return r.json();
    },
    api: async <T>(path: string) => (await (await fetch(`${sb.baseUrl}/api/reseller/v1${path}`, { headers })).json()) as T,
    close: async () => {
      await sb.close();
      home.cleanup();
    },
  };
}

/** The first available pool and its price for a period, as the server lists them. */
export async function pickPools(kit: Kit): Promise<{ poolId: string; provider: string; prices: Record<string, number> }[]> {
  const res = await kit.api<{ data: { poolId: string; provider: string; available: boolean }[]; prices: Record<string, number> }>('/pools');
  return res.data.filter((p) => p.available).map((p) => ({ ...p, prices: res.prices }));
}

export const cents = (n: number) => Math.round(n * 100);

/** Puts `n` units straight into the sandbox's state (and stops its clock): 2,000 purchases would take minutes. */
export function seedUnits(k: Kit, n: number): void {
  const w = k.sb.world;
  const pool = w.pools.find((p) => p.available) ?? w.pools[0]!;
  // A stopped clock: `expiresIn` and the state's `now` would otherwise differ between two runs.
  const now = w.clock.now();
  w.clock.now = () => now;
  for (let i = 0; i < n; i++) {
    const seq = w.state.nextUnitSeq++;
    const u: UnitRecord = {
      proxyRef: `PRX-${seq}`,
      seq,
      ...placement(pool, seq, 0),
      protocol: 'socks5',
      credentials: { username: `user${seq}`, password: `pass${seq}word` },
      savedCredentials: null,
      allowedIps: [],
      description: `seeded unit ${seq}`,
      period: '7d',
      pricePaid: 1,
      createdAt: now,
      expiresAt: now + 7 * 86_400_000,
      lastSwap: null,
      lastExtended: null,
      swapCount: 0,
      releasedAt: null,
    };
    w.state.units.set(u.proxyRef, u);
  }
}
