// Unit status, the public Unit shape, and lookups shared by the unit handlers.
import { ApiFailure, badRequest, unitNotFound } from './http.js';
import { PERIOD_SECONDS, type Period, type PoolRecord } from './catalogue.js';
import { LATEST_MS } from './clock.js';
import { randomToken } from './random.js';
import type { UnitRecord } from './state.js';
import type { Credentials } from './validate.js';
import type { World } from './world.js';

export type UnitStatus = 'ACTIVE' | 'EXPIRED' | 'RELEASED';
export const UNIT_STATUSES: readonly UnitStatus[] = ['ACTIVE', 'EXPIRED', 'RELEASED'];

export function unitStatus(u: UnitRecord, now: number): UnitStatus {
  if (u.releasedAt !== null) return 'RELEASED';
  return u.expiresAt <= now ? 'EXPIRED' : 'ACTIVE';
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function unitView(u: UnitRecord, now: number): Record<string, unknown> {
  return {
    proxyRef: u.proxyRef,
    poolId: u.poolId,
    provider: u.provider,
    country: u.country,
    state: u.state,
    rotation: u.rotation,
    ip: u.ip,
    port: u.port,
    protocol: u.protocol,
    credentials: u.credentials,
    status: unitStatus(u, now),
    createdAt: iso(u.createdAt),
    expiresAt: iso(u.expiresAt),
    expiresIn: Math.max(0, Math.floor((u.expiresAt - now) / 1000)),
    lastSwap: iso(u.lastSwap),
    lastExtended: iso(u.lastExtended),
    swapCount: u.swapCount,
    ...(u.protocol === 'http_noauth' ? { allowedIps: u.allowedIps } : {}),
    description: u.description,
    period: u.period,
    // Sandbox extension: present only for a unit sold past --max-proxies (nothing listens at its port).
    ...(u.proxied === false ? { proxied: false } : {}),
  };
}

/** A unit the caller may act on: released units are gone (404), like units that never existed. */
export function findUnit(w: World, ref: string | undefined, opts: { activeOnly?: boolean } = {}): UnitRecord {
  const u = ref === undefined ? undefined : w.state.units.get(ref);
  if (!u || u.releasedAt !== null) throw unitNotFound(String(ref));
  if (opts.activeOnly && unitStatus(u, w.clock.now()) !== 'ACTIVE') {
    throw new ApiFailure(404, 'unit_not_found', `unit ${u.proxyRef} has expired; only extend and release apply to it`);
  }
  return u;
}

/** A pool a unit can be placed on; `code` differs between create (pool_not_available) and swap. */
export function availablePool(w: World, poolId: unknown, code: 'pool_not_available' | 'pool_not_found'): PoolRecord {
  const p = typeof poolId === 'string' ? w.poolById.get(poolId) : undefined;
  if (!p) throw new ApiFailure(404, code, `pool ${String(poolId)} does not exist`);
  if (!p.available) throw new ApiFailure(404, code, `pool ${p.poolId} is not available right now`);
  // A unit placed there would not listen: the answer would name an address that refuses.
  if (w.poolDown(p.poolId)) throw new ApiFailure(404, code, `pool ${p.poolId} is down (server.down) right now`);
  return p;
}

/** Where a unit lives on a pool: the pool's fields, its host, and a port that changes per swap. */
export function placement(p: PoolRecord, seq: number, swapCount: number) {
  const { poolId, provider, country, state, rotation } = p;
  return { poolId, provider, country, state, rotation, ip: p.host, port: 10000 + ((seq * 131 + swapCount * 977) % 50000) };
}

export function generatedCredentials(w: World): Credentials {
  return {
    username: w.state.proxyUsername ?? `u${randomToken(9, 'abcdefghijkmnpqrstuvwxyz23456789')}`,
    password: randomToken(14),
  };
}

/**
 * The order of effects of spec §4.3: debits, runs the engine, and then `apply`s the purchase (the
 * unit, or its extension). A failure at any point after the debit (the engine, or `apply`
 * refusing) refunds it, so no request debits without a unit or an extension; `apply` checks what
 * can fail before it changes anything. The debit is held (see World.hold) until `apply` returns:
 * then it is settled, and the caller persists it with its effect in one write.
 */
export async function purchase<T>(w: World, price: number, poolId: string, apply: () => T | Promise<T>): Promise<T> {
  if (w.state.balanceUsd < price) {
    throw new ApiFailure(
      402,
      'insufficient_balance',
      `balance ${w.state.balanceUsd.toFixed(2)} USD is below the price of ${price.toFixed(2)} USD; top up ${(price - w.state.balanceUsd).toFixed(2)} USD`,
      { required: price },
    );
  }
  w.hold(price);
  let result: T;
  try {
    await w.engineDelay();
    if (w.engineFails(poolId)) {
      throw new ApiFailure(
        503,
        'upstream_unreachable',
        `the provisioning engine could not reach the provider of pool ${poolId}; the ${price.toFixed(2)} USD debit was refunded`,
      );
    }
    result = await apply();
  } catch (e) {
    w.refund(price);
    w.persist();
    throw e;
  }
  w.settle(price);
  return result;
}

/** When a unit bought or extended for `period` from `start` expires: never past the clock's end. */
export function expiryAfter(start: number, period: Period): number {
  const expiresAt = start + PERIOD_SECONDS[period] * 1000;
  if (expiresAt > LATEST_MS)
    throw badRequest(
      `a ${period} unit from ${new Date(start).toISOString()} would expire after ${new Date(LATEST_MS).toISOString()}, the last time the sandbox keeps`,
    );
  return expiresAt;
}
