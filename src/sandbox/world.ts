// The sandbox's shared pieces, resolved once at start: options, clock, catalogue, state, the
// webhook deliverer, and the money operations every purchase goes through.
import { buildCatalogue, discountedPrices, type PoolRecord, type Prices } from './catalogue.js';
import { Clock, MAX_TIME_SCALE } from './clock.js';
import { initialState, loadState, saveState, type SandboxState } from './state.js';
import { Deliverer } from './webhooks.js';
import { DEFAULT_MAX_PROXIES, isLoopbackIp, loopbackHost, type Proxies } from './proxies/addresses.js';

export interface SandboxOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: a free port). */
  port?: number;
  /** Main key: reseller mode enabled (default sk_sandbox_main_0000000000000000). */
  apiKey?: string;
  /** Key of an account without reseller mode: every call answers 403 reseller_disabled. */
  disabledApiKey?: string;
  /** Starting balance in USD (default 1000). Ignored when a state file already exists. */
  balance?: number;
  /** Reseller discount in percent (default 15). */
  discountPercent?: number;
  /** Catalogue seed (default 42). */
  seed?: number;
  /** Account-wide budget per window (default 120). */
  rateLimit?: number;
  /** Rate-limit window in real seconds (default 60). */
  rateWindowSeconds?: number;
  /** Uptime budget per window (default 10). */
  uptimeRateLimit?: number;
  /** Sandbox seconds per real second (default 1). */
  timeScale?: number;
  /** A pool whose engine always fails (create/extend answer 503 upstream_unreachable, refunded). */
  failPool?: string;
  /** Probability in [0, 1] that any create/extend fails upstream (default 0). */
  failureRate?: number;
  /** balance.low fires when the balance drops below this (default 50). */
  balanceLowThreshold?: number;
  /** Persist state to this file (atomic writes); in memory when absent. */
  stateFile?: string;
  /** Serve the three operations the spec leaves unshown at alternative paths (declared in openapi.json). */
  altPaths?: boolean;
  /** Real milliseconds a webhook receiver has to answer (default 5000). */
  deliveryTimeoutMs?: number;
  /** Real milliseconds the provisioning engine takes (default 20); gives duplicates a window to collide. */
  engineDelayMs?: number;
  /**
   * Every ACTIVE unit listens as a real proxy on loopback at its ip:port (default true); false keeps
   * the documentation addresses (198.51.100.x) where nothing listens.
   */
  proxies?: boolean;
  /** Units proxied at once (default 1000); units sold past it have `proxied: false`. */
  maxProxies?: number;
  /** Account e-mail shown by /me. */
  email?: string;
  /**
   * Where the sandbox reports its own faults (an unexpected error behind a 500), one line per
   * call; given by whoever starts it (`proxyctl sandbox` passes its stderr). Default: dropped.
   */
  log?: (line: string) => void;
}

export type ResolvedOptions = Required<Omit<SandboxOptions, 'failPool' | 'stateFile'>> & {
  failPool: string | undefined;
  stateFile: string | undefined;
};

const dropLog = (): void => undefined;

/** The largest balance the sandbox keeps to the cent (POST /_sandbox/balance, --balance). */
export const MAX_BALANCE_USD = 1_000_000_000_000;

export const DEFAULT_API_KEY = 'sk_sandbox_main_0000000000000000';
export const DEFAULT_DISABLED_API_KEY = 'sk_sandbox_disabled_0000000000000000';

export function resolveOptions(o: SandboxOptions): ResolvedOptions {
  const r: ResolvedOptions = {
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 0,
    apiKey: o.apiKey ?? DEFAULT_API_KEY,
    disabledApiKey: o.disabledApiKey ?? DEFAULT_DISABLED_API_KEY,
    balance: o.balance ?? 1000,
    discountPercent: o.discountPercent ?? 15,
    seed: o.seed ?? 42,
    rateLimit: o.rateLimit ?? 120,
    rateWindowSeconds: o.rateWindowSeconds ?? 60,
    uptimeRateLimit: o.uptimeRateLimit ?? 10,
    timeScale: o.timeScale ?? 1,
    failPool: o.failPool,
    failureRate: o.failureRate ?? 0,
    balanceLowThreshold: o.balanceLowThreshold ?? 50,
    stateFile: o.stateFile,
    altPaths: o.altPaths ?? false,
    deliveryTimeoutMs: o.deliveryTimeoutMs ?? 5000,
    engineDelayMs: o.engineDelayMs ?? 20,
    email: o.email ?? 'reseller@sandbox.example',
    proxies: o.proxies ?? true,
    maxProxies: o.maxProxies ?? DEFAULT_MAX_PROXIES,
    log: o.log ?? dropLog,
  };
  const bad = (m: string) => new RangeError(`sandbox option ${m}`);
  if (r.apiKey === r.disabledApiKey) throw bad('apiKey and disabledApiKey must differ');
  if (!(r.balance >= 0 && r.balance <= MAX_BALANCE_USD)) throw bad(`balance must be from 0 to ${MAX_BALANCE_USD}`);
  if (!(r.discountPercent >= 0 && r.discountPercent < 100)) throw bad('discountPercent must be in [0, 100)');
  if (!(r.rateLimit >= 1) || !(r.uptimeRateLimit >= 1)) throw bad('rate limits must be >= 1');
  if (!(r.rateWindowSeconds > 0)) throw bad('rateWindowSeconds must be > 0');
  if (!(r.timeScale > 0 && r.timeScale <= MAX_TIME_SCALE)) throw bad(`timeScale must be > 0 and at most ${MAX_TIME_SCALE}`);
  if (!(r.failureRate >= 0 && r.failureRate <= 1)) throw bad('failureRate must be in [0, 1]');
  if (!(Number.isInteger(r.maxProxies) && r.maxProxies >= 0)) throw bad('maxProxies must be an integer >= 0');
  return r;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

export class World {
  readonly clock: Clock;
  readonly pools: PoolRecord[];
  readonly poolById: Map<string, PoolRecord>;
  readonly prices: Prices;
  readonly state: SandboxState;
  readonly deliverer: Deliverer;
  /** The units' real proxies (absent with `proxies: false`); set by startSandbox. */
  proxies: Proxies | undefined;

  /** `perPoolAddresses`: with proxies on, each pool gets its own 127.x address (else 127.0.0.1). */
  constructor(
    readonly o: ResolvedOptions,
    perPoolAddresses = false,
  ) {
    this.clock = new Clock(o.timeScale);
    this.pools = buildCatalogue(o.seed);
    this.poolById = new Map(this.pools.map((p) => [p.poolId, p]));
    this.prices = discountedPrices(o.discountPercent);
    const restored = o.stateFile ? loadState(o.stateFile) : undefined;
    this.state = restored ?? initialState(o.balance);
    if (restored) this.clock.notBefore(restored.savedAt);
    if (o.proxies) for (const p of this.pools) p.host = loopbackHost(p.host, perPoolAddresses);
    for (const [poolId, host] of Object.entries(this.state.poolHosts)) {
      const p = this.poolById.get(poolId);
      // A proxy listens where its pool's host is: a documentation address from a --no-proxies run does not apply.
      if (p && (!o.proxies || (perPoolAddresses && isLoopbackIp(host)))) p.host = host;
    }
    this.deliverer = new Deliverer(this.clock, this.state, o.deliveryTimeoutMs, () => this.persist());
  }

  /** Debits of purchases still in flight: in the live balance, not yet in the state file. */
  private heldUsd = 0;
  /** How many purchases are between their debit and their outcome (GET /_sandbox/state shows it). */
  inFlightPurchases = 0;

  /** Writes the state file (when there is one). Called after every mutation, before answering. */
  persist(): void {
    if (this.o.stateFile) saveState(this.o.stateFile, this.state, this.clock.now(), this.heldUsd);
  }

  /**
   * Debits `amount` now (so concurrent purchases see the lower balance) but keeps it off disk
   * until `settle` (the unit exists) or `refund` (the engine failed) decides it: the debit and its
   * unit, or its refund, then reach the state file in one atomic write.
   */
  hold(amount: number): void {
    this.heldUsd = round2(this.heldUsd + amount);
    this.inFlightPurchases++;
    this.debit(amount);
  }

  /** The held debit became a purchase; the caller persists it with the unit in one write. */
  settle(amount: number): void {
    this.heldUsd = round2(this.heldUsd - amount);
    this.inFlightPurchases--;
  }

  /** The held debit goes back. */
  refund(amount: number): void {
    this.settle(amount);
    this.credit(amount);
  }

  emit(event: string, data: Record<string, unknown>, test = false) {
    return this.deliverer.emit(event, data, test);
  }

  debit(amount: number): void {
    this.state.balanceUsd = round2(this.state.balanceUsd - amount);
    const threshold = this.o.balanceLowThreshold;
    if (this.state.balanceUsd < threshold && !this.state.balanceLowFired) {
      this.state.balanceLowFired = true;
      this.emit('balance.low', { balance: this.state.balanceUsd, threshold });
    }
  }

  credit(amount: number): void {
    this.state.balanceUsd = round2(this.state.balanceUsd + amount);
    if (this.state.balanceUsd >= this.o.balanceLowThreshold) this.state.balanceLowFired = false;
  }

  /** Flagged down by `trigger server.down` until `server.up`: shown unavailable, its units refuse. */
  poolDown(poolId: string): boolean {
    return (this.state.poolsDown ?? []).includes(poolId);
  }

  /** Whether the provisioning engine fails this time (the configured pool, or the failure rate). */
  engineFails(poolId: string): boolean {
    return poolId === this.o.failPool || (this.o.failureRate > 0 && Math.random() < this.o.failureRate);
  }

  engineDelay(): Promise<void> {
    return new Promise((r) => setTimeout(r, this.o.engineDelayMs));
  }
}
