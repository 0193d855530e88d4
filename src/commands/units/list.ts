// `units list`: every unit, streamed page by page (so `-o conn > proxies.txt` exports all of them),
// at most --limit of them, or the one page --page/--page-size ask for.
import { emit, finished, showList, type Result } from '../../kit/action.js';
import type { Input } from './list.command.js';
import type { Context } from '../../context/index.js';
import type { ApiClient, Query } from '../../api/client.js';
import type { View } from '../../output/index.js';
import { withConnFormat } from '../../output/conn.js';
import { unitFilter } from '../../units/select.js';
import { parseCustomer } from '../../ledger/index.js';
import type { Unit } from '../../units/types.js';
import { normalisePoolIdFlag, poolMiss } from '../../units/catalogue-ids.js';
import { MAX_PAGE_SIZE, parseStatus } from '../../units/validate.js';
import { parseHours } from '../../kit/options.js';
import { parsePaging, takePages } from '../../kit/paging.js';
import { unitView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';
import { remember } from '../../kit/remember.js';
import { MAX_VALUES } from '../../config/values-cache.js';

type Flags = Input['flags'];

export interface ListOptions {
  query: Query;
  limit: number | undefined;
  onePage: boolean;
  /** --description-contains, matched on the client after each page arrives. */
  descriptionContains?: string | undefined;
  /** --customer, matched the same way. */
  customer?: string | undefined;
}

export function parseListFlags(f: Flags): ListOptions {
  const paging = parsePaging(f, MAX_PAGE_SIZE);
  const query: Query = {
    status: parseStatus(f.status),
    poolId: normalisePoolIdFlag(f.pool),
    includeExpired: f.includeExpired ? true : undefined,
    expiringWithinHours: parseHours(f.expiringWithin, '--expiring-within'),
    page: paging.page,
    pageSize: paging.pageSize,
  };
  const customer = f.customer === undefined ? undefined : parseCustomer(f.customer);
  return { query, limit: paging.limit, onePage: paging.onePage, descriptionContains: f.descriptionContains, customer };
}

export async function listUnits(opts: ListOptions, ctx: Context, view: View<Unit> = unitView): Promise<void> {
  const api = await ctx.api();
  const filter = unitFilter(opts);
  const keep = filter ?? (() => true);
  if (!opts.onePage) {
    const refs: unknown[] = [];
    // Every page is read unless --limit stops early: then no page is asked for before it is wanted.
    const pages = api.pages('/units', shapes.unit, opts.query, { readAhead: opts.limit === undefined });
    const count = await emit(ctx, showList({ pages: noting(takePages(pages, opts.limit, filter), refs) }, view));
    await remember(ctx, { add: { units: refs } });
    await sayPoolMiss(ctx, api, count, opts.query.poolId);
    return;
  }
  const page = api.pages('/units', shapes.unit, opts.query);
  const first = await page.next();
  const items = first.done ? [] : first.value.items.filter(keep);
  const count = await emit(ctx, showList(opts.limit === undefined ? items : items.slice(0, opts.limit), view));
  await remember(ctx, { add: { units: items.map((u) => u.proxyRef) } });
  await sayPoolMiss(ctx, api, count, opts.query.poolId);
  const p = first.done ? undefined : first.value.pagination;
  if (p?.hasNext)
    ctx.notice(`page ${p.page ?? 1} of ${p.totalPages ?? '?'} (${p.totalItems ?? '?'} units); drop --page/--page-size for every unit`);
}

/** Passes the pages on as they stream, noting their units' refs for shell completion. */
async function* noting(pages: AsyncIterable<Unit[]>, refs: unknown[]): AsyncIterable<Unit[]> {
  for await (const page of pages) {
    // The cache keeps MAX_VALUES refs: a 10,000-unit export holds no more than that in memory.
    for (let i = 0; i < page.length && refs.length < MAX_VALUES; i++) refs.push(page[i]?.proxyRef);
    yield page;
  }
}

/** No units with --pool: a pool the catalogue does not hold is a typo worth a warning. */
async function sayPoolMiss(ctx: Context, api: ApiClient, count: number, poolId: Query[string]): Promise<void> {
  if (count > 0 || typeof poolId !== 'string') return;
  const miss = await poolMiss(api, poolId);
  if (miss !== undefined) ctx.warn(miss.message);
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const view = withConnFormat(ctx, unitView, flags.connFormat);
  await listUnits(parseListFlags(flags), ctx, view);
  return finished(ctx);
}
