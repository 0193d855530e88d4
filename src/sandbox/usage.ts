// Generated but plausible traffic and uptime figures. They are pure functions of the unit, the
// pool and the time, so repeated reads agree and tests can reason about them.
import type { Period } from './catalogue.js';
import { hashUnit } from './random.js';
import type { UnitRecord } from './state.js';

const QUOTA_MB: Partial<Record<Period, number>> = { '3h': 1024, '12h': 3072, '24h': 5120 };
export const DAILY_LIMIT_MB = 4096;
const DAY_MS = 86_400_000;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Share of the daily cap a unit uses on a given UTC day: between 20% and 80%. */
function dayShare(ref: string, day: number): number {
  return 0.2 + 0.6 * hashUnit(`${ref}/${day}`);
}

const MB = 1024 * 1024;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * What a proxied unit carried against its limit: the quota of a short plan (`period` 0), or the
 * daily cap of a long one (`period` the sandbox day). Usage events fire once per period.
 */
export function carriedAgainstLimit(u: UnitRecord, now: number): { consumedMb: number; limitMb: number; period: number } {
  const t = u.traffic;
  const quota = QUOTA_MB[u.period];
  if (quota !== undefined) return { consumedMb: round3((t?.totalBytes ?? 0) / MB), limitMb: quota, period: 0 };
  const day = Math.floor(now / DAY_MS);
  return { consumedMb: t && t.day === day ? round3(t.dayBytes / MB) : 0, limitMb: DAILY_LIMIT_MB, period: day };
}

/** The usage of a unit whose proxy is real: the bytes it carried, to the kilobyte. */
function carriedUsage(u: UnitRecord, now: number, base: Record<string, unknown>): Record<string, unknown> {
  const total = round3((u.traffic?.totalBytes ?? 0) / MB);
  const { consumedMb, limitMb } = carriedAgainstLimit(u, now);
  const rest = { remainingMb: round3(Math.max(0, limitMb - consumedMb)), totalMb: total, throttled: consumedMb >= limitMb };
  if (QUOTA_MB[u.period] !== undefined) return { ...base, mode: 'pool', quotaMb: limitMb, usedMb: consumedMb, ...rest };
  return { ...base, mode: 'daily', dailyLimitMb: limitMb, todayMb: consumedMb, ...rest };
}

/** `carried`: the sandbox runs real proxies, so usage is the traffic they carried, not generated figures. */
export function usageRecord(u: UnitRecord, nowMs: number, carried = false): Record<string, unknown> {
  const now = Math.min(nowMs, u.expiresAt, u.releasedAt ?? Infinity);
  const quota = QUOTA_MB[u.period];
  const base = { proxyRef: u.proxyRef, period: u.period, measuredAt: new Date(now).toISOString(), throttled: false };
  if (carried) return carriedUsage(u, now, base);
  if (quota !== undefined) {
    const f = Math.max(0, Math.min(1, (now - u.createdAt) / (u.expiresAt - u.createdAt)));
    const used = round1(quota * f * (0.3 + 0.5 * hashUnit(u.proxyRef)));
    return { ...base, mode: 'pool', quotaMb: quota, usedMb: used, remainingMb: round1(quota - used), totalMb: used };
  }
  let total = 0;
  let today = 0;
  const firstDay = Math.floor(u.createdAt / DAY_MS);
  const lastDay = Math.floor(now / DAY_MS);
  for (let day = firstDay; day <= lastDay; day++) {
    const from = Math.max(day * DAY_MS, u.createdAt);
    const to = Math.min((day + 1) * DAY_MS, now);
    const mb = round1((DAILY_LIMIT_MB * dayShare(u.proxyRef, day) * Math.max(0, to - from)) / DAY_MS);
    total += mb;
    if (day === lastDay) today = mb;
  }
  return {
    ...base,
    mode: 'daily',
    dailyLimitMb: DAILY_LIMIT_MB,
    todayMb: today,
    remainingMb: round1(DAILY_LIMIT_MB - today),
    totalMb: round1(total),
  };
}

export const SLOT_MS = 5 * 60_000;
export const SLOTS_PER_DAY = 288;

export interface SlotCounts {
  slotsUp: number;
  slotsDown: number;
  slotsExcluded: number;
}

/** Probe outcome of one pool in one 5-minute slot: ~97% up, ~2% down, ~1% excluded. */
function probe(poolId: string, slot: number): 'up' | 'down' | 'excluded' {
  const r = hashUnit(`${poolId}#${slot}`);
  return r < 0.01 ? 'excluded' : r < 0.03 ? 'down' : 'up';
}

/** Scores the probe slots that fall inside [from, to). */
export function countSlots(poolId: string, from: number, to: number): SlotCounts {
  const c: SlotCounts = { slotsUp: 0, slotsDown: 0, slotsExcluded: 0 };
  for (let slot = Math.ceil(from / SLOT_MS); slot * SLOT_MS < to; slot++) {
    const p = probe(poolId, slot);
    if (p === 'up') c.slotsUp++;
    else if (p === 'down') c.slotsDown++;
    else c.slotsExcluded++;
  }
  return c;
}

export function uptimePercent(c: SlotCounts): number | null {
  const counted = c.slotsUp + c.slotsDown;
  return counted === 0 ? null : Math.round((c.slotsUp / counted) * 10000) / 100;
}
