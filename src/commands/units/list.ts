// `units list`: every unit, streamed page by page (so `-o conn > proxies.txt` exports all of them),
// at most --limit of them, or the one page --page/--page-size ask for. The API filters by status,
// pool and expiry; the other filters are matched here as pages arrive. --sort is the exception to
// streaming: the first unit in the order may be on the last page, so the whole list is read first.
import { emit, finished, showList, type Result } from '../../kit/action.js';
import type { Input } from './list.command.js';
import type { Context } from '../../context/index.js';
import type { ApiClient } from '../../api/client.js';
import { unitPages } from '../../api/endpoints.js';
import { outputMode, type View } from '../../output/index.js';
import { withConnFormat } from '../../output/conn.js';
import { unitFilter } from '../../units/select.js';
import { sortUnits } from '../../units/sort.js';
import type { Unit } from '../../units/types.js';
import { countryMiss, poolMiss } from '../../units/catalogue-ids.js';
import { parseUnitList, type ListOptions } from '../../units/list.js';
import { MAX_PAGE_SIZE } from '../../units/validate.js';
import { parsePaging, takePages } from '../../kit/paging.js';
import { unitTerminalView, unitView } from '../../units/view.js';
import { remember, unitsSeen } from '../../kit/remember.js';
import { MAX_UNITS } from '../../config/values-cache.js';

type Flags = Input['flags'];

/** Every flag checked before any request. */
function parseListFlags(f: Flags): ListOptions {
  return parseUnitList(f, parsePaging(f, MAX_PAGE_SIZE));
}

async function listUnits(opts: ListOptions, ctx: Context, view: View<Unit> = unitView): Promise<void> {
  const api = await ctx.api();
  const filter = unitFilter(opts);
  const keep = filter ?? (() => true);
  if (opts.sort && !opts.onePage) {
    const units: Unit[] = [];
    for await (const page of takePages(unitPages(api, opts.query, { readAhead: true }), undefined, filter))
      for (const u of page) units.push(u);
    const sorted = sortUnits(units, opts.sort);
    const count = await emit(ctx, showList(opts.limit === undefined ? sorted : sorted.slice(0, opts.limit), view));
    await remember(ctx, unitsSeen(units.slice(0, MAX_UNITS)));
    await sayMiss(ctx, api, count, opts);
    return;
  }
  if (!opts.onePage) {
    const seen: Pick<Unit, 'proxyRef' | 'poolId'>[] = [];
    // Every page is read unless --limit stops early: then no page is asked for before it is wanted.
    const pages = unitPages(api, opts.query, { readAhead: opts.limit === undefined });
    const count = await emit(ctx, showList({ pages: noting(takePages(pages, opts.limit, filter), seen) }, view));
    await remember(ctx, unitsSeen(seen));
    await sayMiss(ctx, api, count, opts);
    return;
  }
  const page = unitPages(api, opts.query);
  const first = await page.next();
  const kept = first.done ? [] : first.value.items.filter(keep);
  const items = opts.sort ? sortUnits(kept, opts.sort) : kept;
  const count = await emit(ctx, showList(opts.limit === undefined ? items : items.slice(0, opts.limit), view));
  await remember(ctx, unitsSeen(items));
  await sayMiss(ctx, api, count, opts);
  const p = first.done ? undefined : first.value.pagination;
  if (p?.hasNext)
    ctx.notice(`page ${p.page ?? 1} of ${p.totalPages ?? '?'} (${p.totalItems ?? '?'} units); drop --page/--page-size for every unit`);
}

/** Passes the pages on as they stream, noting their units (ref and pool) for shell completion. */
async function* noting(pages: AsyncIterable<Unit[]>, seen: Pick<Unit, 'proxyRef' | 'poolId'>[]): AsyncIterable<Unit[]> {
  for await (const page of pages) {
    // Only what completion keeps (ref and pool), at most what the cache holds (MAX_UNITS).
    for (const u of page.slice(0, MAX_UNITS - seen.length)) seen.push({ proxyRef: u.proxyRef, poolId: u.poolId });
    yield page;
  }
}

/** No units with --pool or --country: one the catalogue does not hold is a typo worth a warning. */
async function sayMiss(ctx: Context, api: ApiClient, count: number, opts: ListOptions): Promise<void> {
  if (count > 0) return;
  const poolId = opts.query.poolId;
  const miss =
    (typeof poolId === 'string' ? await poolMiss(api, poolId) : undefined) ??
    (opts.country !== undefined ? await countryMiss(api, opts.country) : undefined);
  if (miss !== undefined) ctx.warn(miss.message);
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  // Times for people only on a terminal's table; every other format keeps the API's ISO 8601 UTC.
  const view = withConnFormat(ctx, outputMode(ctx) === 'table' ? unitTerminalView(flags.utc === true) : unitView, flags.connFormat);
  await listUnits(parseListFlags(flags), ctx, view);
  return finished(ctx);
}
