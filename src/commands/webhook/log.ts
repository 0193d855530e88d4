// webhook log: the delivery log (GET /webhook/deliveries), every page streamed (the default),
// --limit N deliveries, the one page --page/--page-size ask for, or --follow,
// which polls the log (back to the last delivery seen and the oldest pending one) and prints
// each new delivery once and each change of state once.
import { deliveryPages, getDeliveryPage } from '../../api/endpoints.js';
import type { Input } from './log.command.js';
import { emit, showList, showText, type Result } from '../../kit/action.js';
import { parseInteger } from '../../kit/options.js';
import { parsePaging, takePages } from '../../kit/paging.js';
import type { Context } from '../../context/index.js';
import type { ApiClient, Query } from '../../api/index.js';
import { abortableSleep } from '../../api/client.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { cell, escapeDeep, humanDuration, jsonLine, outputMode, paintFor } from '../../output/index.js';
import type { Delivery } from '../../webhooks/events.js';
import { deliveryQuery, MAX_LOG_PAGE_SIZE, parseDeliveryStatus } from '../../webhooks/log.js';
import { DeliveryTracker, type DeliveryChange } from '../../webhooks/follow.js';
import { attemptsOf, DELIVERY_FIELDS, deliveryColumns, deliveryLogColumns, paintStatus } from './columns.js';

type LogFlags = Input['flags'];

export interface LogOptions {
  query: Query;
  limit: number | undefined;
  onePage: boolean;
  follow: boolean;
  intervalMs: number;
}

export function parseLogFlags(flags: LogFlags): LogOptions {
  const status = parseDeliveryStatus(flags.status);
  const paging = parsePaging(flags, MAX_LOG_PAGE_SIZE, 1_000_000);
  const interval = flags.interval === undefined ? 2 : Number(flags.interval);
  if (!Number.isFinite(interval) || interval < 1 || interval > 3600)
    throw new UsageError(`--interval must be 1 to 3600 seconds, got "${flags.interval}"`);
  if (flags.follow && (flags.all || paging.page !== undefined || paging.limit !== undefined))
    throw new UsageError('--follow cannot be combined with --all, --limit or --page');
  // --follow reads its own pages: only an explicit --page-size reaches it.
  const pageSize = flags.follow ? parseInteger(flags.pageSize, '--page-size', 1, MAX_LOG_PAGE_SIZE) : paging.pageSize;
  return {
    query: deliveryQuery({ status, event: flags.event }, { page: paging.page, pageSize }),
    limit: paging.limit,
    onePage: paging.onePage,
    follow: flags.follow === true,
    intervalMs: interval * 1000,
  };
}

/** How many already-logged deliveries --follow shows before the new ones, like `tail`. */
const SHOWN_AT_START = 10;

function firstPage(api: ApiClient, query: Query): Promise<{ data?: Delivery[] }> {
  return getDeliveryPage(api, query);
}

/** "2026-01-01T10:00:00Z": a time the server gave, to the second; "-" when it gave none. */
function at(iso: unknown): string {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(ms) ? '-' : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * One line of --follow. It starts with the delivery's own time (when it was created, as the log
 * says), never the time this poll read it: a poll shows deliveries made long before it, and a
 * delivered one also says when it was delivered. `now` only measures the wait to the next attempt.
 */
export function describeChange(c: DeliveryChange, now: Date, color: ReturnType<typeof paintFor>): string {
  const d = c.delivery;
  const parts = [color.dim(at(d.createdAt)), d.id, d.event];
  if (c.type === 'changed' && c.changed.includes('status'))
    parts.push(`${paintStatus(c.previous.status, color)} → ${paintStatus(d.status, color)}`);
  else parts.push(paintStatus(d.status, color));
  parts.push(`attempt ${attemptsOf(d)}`);
  if (d.responseStatus !== undefined && d.responseStatus !== null) parts.push(`HTTP ${cell(d.responseStatus)}`);
  if (d.status === 'DELIVERED' && typeof d.deliveredAt === 'string') parts.push(`delivered ${at(d.deliveredAt)}`);
  if (typeof d.nextAttemptAt === 'string') {
    const wait = (Date.parse(d.nextAttemptAt) - now.getTime()) / 1000;
    parts.push(`next ${d.nextAttemptAt}${Number.isFinite(wait) && wait > 0 ? ` (in ${humanDuration(wait)})` : ''}`);
  }
  if (d.lastError) parts.push(color.red(`error: ${d.lastError}`));
  if (c.type === 'new') parts.push(color.cyan('new'));
  return parts.join('  ');
}

/** Most pages one poll reads back (10,000 deliveries at 100 a page). */
const MAX_PAGES_PER_POLL = 100;

/**
 * One poll: the newest page, then older pages until the tracker's horizon (the newest delivery
 * already shown, and the oldest one still pending) is passed, so a burst of any size between two
 * polls and changes to older pending deliveries are all seen. The first poll reads one page.
 */
async function poll(api: ApiClient, query: Query & { pageSize: number }, tracker: DeliveryTracker, first: boolean): Promise<Delivery[]> {
  const horizon = tracker.horizon();
  const items: Delivery[] = [];
  for (let page = 1; page <= MAX_PAGES_PER_POLL; page++) {
    const body = await getDeliveryPage(api, { ...query, page });
    const data = Array.isArray(body?.data) ? body.data : [];
    items.push(...data);
    const p = body?.pagination;
    const more = p?.hasNext ?? (typeof p?.totalPages === 'number' ? page < p.totalPages : data.length >= query.pageSize);
    if (first || !more || data.length === 0 || tracker.reached(data, horizon)) break;
  }
  return items;
}

async function follow(ctx: Context, api: ApiClient, opts: LogOptions): Promise<number> {
  const query = { ...opts.query, pageSize: Number(opts.query.pageSize ?? MAX_LOG_PAGE_SIZE) };
  const tracker = new DeliveryTracker();
  const jsonl = outputMode(ctx) === 'jsonl';
  const paint = paintFor(ctx);
  try {
    for (let first = true; ; first = false) {
      const items = await poll(api, query, tracker, first);
      // The first poll shows what is already there, then only what changes.
      const changes = tracker.diff(items, first);
      const shown = first ? changes.slice(-SHOWN_AT_START) : changes;
      // One write per poll, a line per change: a JSON line, or a sentence a person reads.
      // A change --jq makes nothing of is no line at all.
      const lines = shown.map((c) => (jsonl ? jsonLine(ctx, c) : describeChange(escapeDeep(c), ctx.now(), paint))).filter((l) => l !== '');
      if (lines.length > 0) await emit(ctx, showText(lines.join('\n')));
      // Said once the starting point is read: from here on every new delivery and change shows.
      if (first) ctx.notice(`Following the delivery log (every ${opts.intervalMs / 1000}s); Ctrl-C to stop.`);
      await abortableSleep(opts.intervalMs, ctx.signal);
    }
  } catch (err) {
    // Ctrl-C is how following ends, not a failure: exit 0, as `webhook listen` does.
    if (err instanceof InterruptedError || ctx.signal.aborted) return 0;
    throw err;
  }
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const opts = parseLogFlags(flags);
  const api = await ctx.api();
  if (opts.follow) return follow(ctx, api, opts);
  const columns = outputMode(ctx) === 'table' ? deliveryLogColumns(ctx.now().getTime()) : deliveryColumns;
  const view = { columns, fields: DELIVERY_FIELDS, empty: 'No deliveries found.' };
  if (!opts.onePage) {
    const pages = deliveryPages(api, opts.query, { readAhead: opts.limit === undefined });
    return showList({ pages: takePages(pages, opts.limit) }, view);
  }
  const body = await firstPage(api, opts.query);
  const items = Array.isArray(body?.data) ? body.data : [];
  return showList(opts.limit === undefined ? items : items.slice(0, opts.limit), view);
}
