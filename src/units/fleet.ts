// `proxyctl status`: the fleet summed up from what the API listed. Pure: counts, what expires
// within a day, and the runway (how many days the balance pays for renewing what is active).
import { PERIODS, type Period } from '../api/enums.js';
import { customerOf } from '../ledger/customer.js';
import type { Unit } from './types.js';
import { secondsLeft } from './select.js';

const PERIOD_SECONDS: Record<Period, number> = { '3h': 3 * 3600, '12h': 12 * 3600, '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 };
const DAY_SECONDS = 86_400;

export interface ExpiringUnit {
  proxyRef: string;
  poolId: string | undefined;
  country: string | undefined;
  expiresAt: string | undefined;
  /** Seconds left, as the server counted them on the read. */
  expiresIn: number;
}

export interface FleetSummary {
  total: number;
  active: number;
  byStatus: Record<string, number>;
  byCountry: Record<string, number>;
  /** Active units per customer tag (customer=NAME in the description); empty when none is tagged. */
  byCustomer: Record<string, number>;
  expiringWithin24h: number;
  /** Soonest first. */
  expiring: ExpiringUnit[];
  /** USD a day to keep renewing every active unit at its period's current price. */
  renewalPerDayUsd: number;
  /** Active units whose period could not be told (left out of renewalPerDayUsd). */
  unpriced: number;
}

/**
 * The period a unit is renewed for: its `period` when the API gives one, else the period whose
 * length is nearest its first term (createdAt → expiresAt; an extended unit reads as longer).
 */
export function renewalPeriod(u: Unit): Period | undefined {
  if (typeof u.period === 'string' && (PERIODS as readonly string[]).includes(u.period)) return u.period as Period;
  const span = (Date.parse(String(u.expiresAt)) - Date.parse(String(u.createdAt))) / 1000;
  if (!Number.isFinite(span) || span <= 0) return undefined;
  return [...PERIODS].sort((a, b) => Math.abs(PERIOD_SECONDS[a] - span) - Math.abs(PERIOD_SECONDS[b] - span))[0];
}

/**
 * Adds up a fleet as its units stream in (never holding the list); `prices` may still be on its way
 * (GET /me asked at the same time): renewals are counted per period and priced at the end.
 */
export async function summarizeFleet(
  units: AsyncIterable<Unit> | Iterable<Unit>,
  prices: Promise<Record<string, unknown>> | Record<string, unknown>,
  now: number,
): Promise<FleetSummary> {
  const s: FleetSummary = {
    total: 0,
    active: 0,
    byStatus: {},
    byCountry: {},
    byCustomer: {},
    expiringWithin24h: 0,
    expiring: [],
    renewalPerDayUsd: 0,
    unpriced: 0,
  };
  const perPeriod = new Map<Period, number>();
  for await (const u of units) {
    s.total += 1;
    const status = typeof u.status === 'string' ? u.status : 'UNKNOWN';
    s.byStatus[status] = (s.byStatus[status] ?? 0) + 1;
    if (status !== 'ACTIVE') continue;
    s.active += 1;
    const country = typeof u.country === 'string' ? u.country : undefined;
    if (country) s.byCountry[country] = (s.byCountry[country] ?? 0) + 1;
    const customer = customerOf(typeof u.description === 'string' ? u.description : undefined);
    if (customer) s.byCustomer[customer] = (s.byCustomer[customer] ?? 0) + 1;
    const left = secondsLeft(u, now);
    if (left !== undefined && left <= DAY_SECONDS) {
      s.expiring.push({
        proxyRef: u.proxyRef,
        poolId: u.poolId,
        country,
        expiresAt: typeof u.expiresAt === 'string' ? u.expiresAt : undefined,
        expiresIn: left,
      });
    }
    const period = renewalPeriod(u);
    if (period) perPeriod.set(period, (perPeriod.get(period) ?? 0) + 1);
    else s.unpriced += 1;
  }
  const priced = await prices;
  for (const [period, n] of perPeriod) {
    const price = priced[period];
    if (typeof price === 'number') s.renewalPerDayUsd += (n * price * DAY_SECONDS) / PERIOD_SECONDS[period];
    else s.unpriced += n;
  }
  s.expiring.sort((a, b) => a.expiresIn - b.expiresIn);
  s.expiringWithin24h = s.expiring.length;
  s.renewalPerDayUsd = Math.round(s.renewalPerDayUsd * 100) / 100;
  return s;
}

/** Whole tenths of a day the balance covers (rounded down), or null when nothing is renewed. */
export function runwayDays(balanceUsd: number, perDayUsd: number): number | null {
  if (!(perDayUsd > 0)) return null;
  return Math.floor((balanceUsd / perDayUsd) * 10) / 10;
}
