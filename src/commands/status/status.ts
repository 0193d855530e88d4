// `proxyctl status`, like `gh status`: what a reseller checks first, in a few requests (all at
// once): GET /me (balance, prices, webhook), the unit list (every page, expired included), the
// failed deliveries (one page) and four 6-hour windows of GET /me/uptime for the sparkline (the
// uptime budget is 10 a minute, so two runs a minute still fit).
import type { Input } from './status.command.js';
import { show, showText, type Result } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import { ApiError } from '../../errors.js';
import { outputMode, paintFor, renderStatus, statusLinesPiped, terminalColumns, type StatusReport } from '../../output/index.js';
import { runwayDays, summarizeFleet } from '../../units/fleet.js';
import { MAX_PAGE_SIZE } from '../../units/validate.js';
import * as shapes from '../../api/shapes.js';
import { billedCents, hasPrices, priceBookOf, type PriceBook } from '../../ledger/billing.js';
import { profileInUse } from '../../context/credentials.js';

const HOUR_MS = 3_600_000;
/** The last day in this many windows: one uptime request and one sparkline bar each. */
const UPTIME_WINDOWS = 4;
const DELIVERY_PAGE = 100;

async function uptimeOfLastDay(ctx: Context, now: number): Promise<StatusReport['uptime']> {
  const api = await ctx.api();
  const step = (24 * HOUR_MS) / UPTIME_WINDOWS;
  const windows = Array.from({ length: UPTIME_WINDOWS }, (_, i) => ({
    from: new Date(now - 24 * HOUR_MS + i * step).toISOString(),
    // The last window ends at the server's now (it clamps `to`).
    to: i === UPTIME_WINDOWS - 1 ? undefined : new Date(now - 24 * HOUR_MS + (i + 1) * step).toISOString(),
  }));
  try {
    const got = await Promise.all(
      // No waiting on a 429 here (Retry-After can be a minute): the line says so instead.
      windows.map((w) => api.get('/me/uptime', shapes.uptime, { from: w.from, to: w.to }, { budget: 'uptime', retry: 'never' })),
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
async function failedLastDay(ctx: Context, now: number): Promise<{ count: number; more: boolean }> {
  const api = await ctx.api();
  const page = await api.get('/webhook/deliveries', shapes.deliveryPage, {
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
async function perCustomer(ctx: Context, active: Record<string, number>, now: number): Promise<NonNullable<StatusReport['customers']>> {
  const spent = new Map<string, number>();
  const billed = new Map<string, number>();
  let book: PriceBook | undefined;
  try {
    const store = await ctx.config();
    const prices = priceBookOf(store.profileNow(profileInUse(ctx, store)));
    book = hasPrices(prices) ? prices : undefined;
    const since = now - 30 * 86_400_000;
    for (const e of await (await ctx.ledger()).journal.read()) {
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

export async function gatherStatus(ctx: Context): Promise<StatusReport> {
  const api = await ctx.api();
  const now = ctx.now().getTime();
  const snapshot = api.get('/me', shapes.snapshot);
  const units = api.all('/units', shapes.unit, { includeExpired: true, pageSize: MAX_PAGE_SIZE });
  const [me, fleet, uptime, failed] = await Promise.all([
    snapshot,
    summarizeFleet(
      units,
      snapshot.then((m) => m.prices ?? {}),
      now,
    ),
    uptimeOfLastDay(ctx, now),
    failedLastDay(ctx, now),
  ]);
  const { renewalPerDayUsd, unpriced, byCustomer, ...counts } = fleet;
  const customers = await perCustomer(ctx, byCustomer, now);
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

export default async function handler({ ctx }: Input): Promise<Result> {
  const report = await gatherStatus(ctx);
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') return show(report);
  // Piped without -o: a value a line, for grep and cut (the screen's sentences are for people).
  if (mode === 'tsv') return showText(statusLinesPiped(report));
  // A table gets the status screen's own layout (output/status.ts), not a key/value table.
  return showText(
    await renderStatus(report, {
      paint: paintFor(ctx),
      width: terminalColumns(ctx.io),
      relative: mode === 'table',
      now: ctx.now().getTime(),
    }),
  );
}
