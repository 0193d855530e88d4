// Everything the sandbox remembers, and its persistence: in memory by default; with a state file,
// every mutation is written atomically (temp file, fsync, rename) before the response is sent, so
// a restart, even after kill -9, loses no acknowledged purchase. A purchase still in flight is
// never on disk: its debit is held in memory (`heldUsd`) and written only together with its unit
// (or not at all when it is refunded), so a crash mid-purchase leaves neither debit nor key.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Period } from './catalogue.js';
import type { Credentials, Protocol } from './validate.js';

export interface UnitRecord {
  proxyRef: string;
  seq: number;
  poolId: string;
  provider: string;
  country: string;
  state: string | null;
  rotation: string | null;
  ip: string;
  port: number;
  protocol: Protocol;
  credentials: Credentials | null;
  /** Credentials kept while the unit is on the no-auth protocol, reused when it switches back. */
  savedCredentials: Credentials | null;
  allowedIps: string[];
  description: string;
  period: Period;
  pricePaid: number;
  createdAt: number;
  expiresAt: number;
  lastSwap: number | null;
  lastExtended: number | null;
  swapCount: number;
  releasedAt: number | null;
  /**
   * With proxies on: true while the unit holds one of the sandbox's proxy places, false when it
   * was sold past `maxProxies` (nothing listens at its port). Absent with --no-proxies.
   */
  proxied?: boolean;
  /** Downed by `trigger unit.down` until `trigger unit.up`: its proxy refuses connections. */
  down?: boolean;
  /** Bytes its proxy carried (both directions), in total and on the sandbox day `day`. */
  traffic?: {
    totalBytes: number;
    day: number;
    dayBytes: number;
    /** The limit period (0 for a quota, else the day) in which usage.warning / usage.throttled last fired. */
    warnedIn?: number;
    throttledIn?: number;
  };
}

export interface IdempotencyRecord {
  createdAt: number;
  inFlight: boolean;
  status?: number;
  body?: unknown;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface DeliveryRecord {
  id: string;
  seq: number;
  eventId: string;
  event: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
  /** The raw JSON body, identical on every attempt (the signature covers exactly these bytes). */
  payload: string;
  test: boolean;
}

export interface WebhookConfig {
  url: string | null;
  secret: string | null;
  enabled: boolean;
}

export interface SandboxState {
  version: 1;
  /** Sandbox time of the last save: a restored clock never runs backwards. */
  savedAt: number;
  balanceUsd: number;
  proxyUsername: string | null;
  nextUnitSeq: number;
  nextDeliverySeq: number;
  units: Map<string, UnitRecord>;
  /** Keyed by `${apiKey}\u0000${idempotencyKey}`. */
  idempotency: Map<string, IdempotencyRecord>;
  webhook: WebhookConfig;
  deliveries: DeliveryRecord[];
  /** balance.low fires once per crossing below the threshold. */
  balanceLowFired: boolean;
  /** Pool hosts changed by server.ip_changed. */
  poolHosts: Record<string, string>;
  /** Pools downed by `trigger server.down` until `trigger server.up` (absent in older files). */
  poolsDown?: string[];
}

export function initialState(balanceUsd: number): SandboxState {
  return {
    version: 1,
    savedAt: 0,
    balanceUsd,
    proxyUsername: null,
    nextUnitSeq: 1,
    nextDeliverySeq: 1,
    units: new Map(),
    idempotency: new Map(),
    webhook: { url: null, secret: null, enabled: false },
    deliveries: [],
    balanceLowFired: false,
    poolHosts: {},
  };
}

function toJson(s: SandboxState, heldUsd: number): string {
  // The balance on disk is the balance before any in-flight debit: those are written with their unit.
  const balanceUsd = Math.round((s.balanceUsd + heldUsd) * 100) / 100;
  return JSON.stringify({
    ...s,
    balanceUsd,
    units: [...s.units.values()],
    idempotency: [...s.idempotency.entries()].filter(([, r]) => !r.inFlight),
  });
}

export function loadState(file: string): SandboxState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const raw = JSON.parse(text) as Omit<SandboxState, 'units' | 'idempotency'> & {
    units: UnitRecord[];
    idempotency: [string, IdempotencyRecord][];
  };
  if (raw.version !== 1) throw new Error(`${file}: unsupported sandbox state version ${String(raw.version)}`);
  // A key that was in flight when the sandbox stopped had no effect on disk (no debit, no unit):
  // it is resolved as "never ran", so a retry with it buys exactly once.
  const idempotency = new Map(raw.idempotency.filter(([, r]) => !r.inFlight));
  return { ...raw, units: new Map(raw.units.map((u) => [u.proxyRef, u])), idempotency };
}

export function saveState(file: string, s: SandboxState, now: number, heldUsd = 0): void {
  s.savedAt = now;
  // Unique per writer, as the pid was, without reading `process` (only src/cli.ts does).
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, toJson(s, heldUsd));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  // The rename itself must reach the disk too, or a crash could bring the old file back.
  try {
    const dfd = openSync(dirname(file), 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some platforms cannot open a directory for fsync; the rename is still atomic.
  }
}
