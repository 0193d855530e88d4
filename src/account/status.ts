// `proxyctl status`, like `gh status`: what a reseller checks first, in a few requests (all at
// once): GET /me (balance, prices, webhook), the unit list (every page, expired included), the
// failed deliveries (one page) and four 6-hour windows of GET /me/uptime for the sparkline, read
// at most once in 5 minutes for the account (the uptime budget is 10 a minute): a status soon after
// another reuses its uptime from the cache dir.
import { billedCents, type PriceBook } from '../ledger/billing.js';
import type { ApiClient } from '../api/client.js';
import { allUnits, getDeliveryPage, getSnapshot, getUptime } from '../api/endpoints.js';
import { ApiError } from '../errors.js';
import type { Ledger } from '../ledger/index.js';
import type { StatusReport } from '../output/index.js';
import { runwayDays, summarizeFleet } from '../units/fleet.js';
import { MAX_PAGE_SIZE } from '../units/validate.js';

const HOUR_MS = 3_600_000;
/** The last day in this many windows: one uptime request and one sparkline bar each. */
const UPTIME_WINDOWS = 4;
const DELIVERY_PAGE = 100;

/**
 * How long the last day's uptime is reused, by every status of the account (the CLI's and the
 * agent's, through the cache dir): the probes run every 5 minutes, so a newer answer differs by a
 * slot at most, and a third status in a minute does not wait for the uptime budget (10 a minute).
 */
export const UPTIME_REUSE_MS = 5 * 60_000;

type DayUptime = NonNullable<StatusReport['uptime']>;
interface KeptUptime {
  /** When it was read (epoch ms): also what prunes it from the cache. */
  at: number;
  uptime: DayUptime;
}
/** A read on its way, per client: two status calls at once (an agent's) share it. */
const reading = new WeakMap<ApiClient, Promise<StatusReport['uptime']>>();

async function uptimeOfLastDay(api: ApiClient, now: number): Promise<StatusReport['uptime']> {
  const key = `status-uptime:${api.accountId()}`;
  const kept = await api.cache?.get<KeptUptime>(key).catch(() => undefined);
  if (kept && typeof kept.at === 'number' && now >= kept.at && now - kept.at < UPTIME_REUSE_MS && kept.uptime) return kept.uptime;
  let read = reading.get(api);
  if (!read) {
    read = readUptimeOfLastDay(api, now).finally(() => reading.delete(api));
    reading.set(api, read);
    const got = await read;
    if (got) await api.cache?.set(key, { at: now, uptime: got } satisfies KeptUptime).catch(() => undefined);
  }
  return read;
}

async function readUptimeOfLastDay(api: ApiClient, now: number): Promise<StatusReport['uptime']> {
  const step = (24 * HOUR_MS) / UPTIME_WINDOWS;
  const windows = Array.from({ length: UPTIME_WINDOWS }, (_, i) => ({
    from: new Date(now - 24 * HOUR_MS + i * step).toISOString(),
    // The last window ends at the server's now (it clamps `to`).
    to: i === UPTIME_WINDOWS - 1 ? undefined : new Date(now - 24 * HOUR_MS + (i + 1) * step).toISOString(),
  }));
  try {
    const got = await Promise.all(
      // No waiting on a 429 here (Retry-After can be a minute): the line says so instead.
      windows.map((w) => getUptime(api, { from: w.from, to: w.to }, { retry: 'never' })),
    );
    const up = got.reduce((n, w) => n + (w.slotsUp ?? 0), 0);
    const down = got.reduce((n, w) => n + (w.slotsDown ?? 0), 0);
    return {
      from: got[0]?.from ?? windows[0]!.from,
      to: got.at(-1)?.to ?? new Date(now).toISOString(),
      uptimePercent: up + down > 0 ? Math.round((up / (up + down)) * 10_000) / 100 : null,
      windows: got.map((w) => ({ from: w.from, to: w.to, uptimePercent: typeof w.uptimePercent === 'number' ? w.uptimePercent : null })),
    };
  } catch (err) {
    // The uptime budget is small: when it is spent, the rest of the screen is still worth showing.
    if (err instanceof ApiError && err.status === 429) return null;
    throw err;
  }
}

/** Failed deliveries created in the last day, from the newest page of the FAILED log. */
async function failedLastDay(api: ApiClient, now: number): Promise<{ count: number; more: boolean }> {
  const page = await getDeliveryPage(api, {
    status: 'FAILED',
    pageSize: DELIVERY_PAGE,
  });
  const since = now - 24 * HOUR_MS;
  const recent = page.data.filter((d) => typeof d.createdAt === 'string' && Date.parse(d.createdAt) >= since);
  return { count: recent.length, more: recent.length === DELIVERY_PAGE };
}

/**
 * Active units and the ledger's spend of the last 30 days per customer tag, when any unit or debit
 * has one (most spent first). A ledger that cannot be read leaves spend at what it could read.
 */
async function perCustomer(
  ledger: () => Promise<Ledger>,
  prices: (() => Promise<PriceBook | undefined>) | undefined,
  active: Record<string, number>,
  now: number,
): Promise<NonNullable<StatusReport['customers']>> {
  const spent = new Map<string, number>();
  const billed = new Map<string, number>();
  let book: PriceBook | undefined;
  try {
    book = await prices?.();
    const since = now - 30 * 86_400_000;
    // Streamed, in any order (sums in whole cents): what it holds does not grow with the journal.
    for await (const page of (await ledger()).journal.pages({ ordered: false }))
      for (let i = 0; i < page.length; i++) {
        const e = page[i]!;
        if (e.customer && Date.parse(e.at) >= since) {
          spent.set(e.customer, (spent.get(e.customer) ?? 0) + Math.round(e.priceUsd * 100));
          if (book) billed.set(e.customer, (billed.get(e.customer) ?? 0) + billedCents(e, book));
        }
      }
  } catch {
    // no ledger to read: units only
  }
  const names = new Set([...Object.keys(active), ...spent.keys()]);
  return [...names]
    .map((customer) => {
      const cost = spent.get(customer) ?? 0;
      const bill = billed.get(customer) ?? 0;
      return {
        customer,
        activeUnits: active[customer] ?? 0,
        spentLast30DaysUsd: cost / 100,
        // The margin per customer, as `proxyctl customers` counts it, when prices are set.
        ...(book ? { billedLast30DaysUsd: bill / 100, marginLast30DaysUsd: (bill - cost) / 100 } : {}),
      };
    })
    .sort((a, b) => b.spentLast30DaysUsd - a.spentLast30DaysUsd || b.activeUnits - a.activeUnits || a.customer.localeCompare(b.customer));
}

/**
 * The status of the account at `now`, for every front door (`proxyctl status`, the agent's
 * get_status). `ledger` opens the account's ledger for the spend per customer; one that cannot be
 * opened leaves spend out. `prices`, when it gives a price book, adds billed and margin per customer.
 */
export async function gatherStatus(
  api: ApiClient,
  now: number,
  ledger: () => Promise<Ledger>,
  prices?: () => Promise<PriceBook | undefined>,
): Promise<StatusReport> {
  const snapshot = getSnapshot(api);
  const units = allUnits(api, { includeExpired: true, pageSize: MAX_PAGE_SIZE });
  const [me, fleet, uptime, failed] = await Promise.all([
    snapshot,
    summarizeFleet(
      units,
      snapshot.then((m) => m.prices ?? {}),
      now,
    ),
    uptimeOfLastDay(api, now),
    failedLastDay(api, now),
  ]);
  const { renewalPerDayUsd, unpriced, byCustomer, ...counts } = fleet;
  const customers = await perCustomer(ledger, prices, byCustomer, now);
  return {
    balanceUsd: me.balanceUsd,
    runwayDays: runwayDays(me.balanceUsd, renewalPerDayUsd),
    renewalPerDayUsd,
    units: { ...counts, ...(unpriced ? { unpriced } : {}) },
    ...(customers.length > 0 ? { customers } : {}),
    uptime,
    webhook: {
      url: me.webhook?.url ?? null,
      enabled: me.webhook?.enabled === true,
      failedLastDay: failed.count,
      ...(failed.more ? { failedLastDayAtLeast: true } : {}),
    },
  };
}
