// `units list`: one page, or every page streamed with --all (so `-o conn > proxies.txt` exports all).
import { finished } from '../action.js';
import type { Input } from './list.command.js';
import type { Context } from '../../context/index.js';
import type { Query } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { assertFormats, printList } from '../../output/index.js';
import type { Unit } from '../../units/types.js';
import { MAX_PAGE_SIZE, parseStatus } from '../../units/validate.js';
import { parseInteger } from '../options.js';
import { unitView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';

type Flags = Input['flags'];

export interface ListOptions {
  query: Query;
  all: boolean;
}

export function parseListFlags(f: Flags): ListOptions {
  const page = parseInteger(f.page, '--page', 1);
  const pageSize = parseInteger(f.pageSize, '--page-size', 1, MAX_PAGE_SIZE);
  if (f.all && page !== undefined) throw new UsageError('--all reads every page; drop --page');
  const query: Query = {
    status: parseStatus(f.status),
    poolId: f.pool,
    includeExpired: f.includeExpired ? true : undefined,
    expiringWithinHours: parseInteger(f.expiringWithin, '--expiring-within', 1),
    page,
    // --all uses the largest page so the export takes as few requests as possible.
    pageSize: pageSize ?? (f.all ? MAX_PAGE_SIZE : undefined),
  };
  return { query, all: f.all === true };
}

export async function run(opts: ListOptions, ctx: Context): Promise<void> {
  const api = await ctx.api();
  if (opts.all) {
    await printList(ctx, api.all<Unit>('/units', shapes.unit, opts.query), unitView);
    return;
  }
  const page = api.pages<Unit>('/units', shapes.unit, opts.query);
  const first = await page.next();
  const items = first.done ? [] : first.value.items;
  await printList(ctx, items, unitView);
  const p = first.done ? undefined : first.value.pagination;
  if (p?.hasNext && !opts.all)
    ctx.notice(`page ${p.page ?? 1} of ${p.totalPages ?? '?'} (${p.totalItems ?? '?'} units); use --all for every page`);
}

export default async function handler({ flags, ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
  await run(parseListFlags(flags), ctx);
  return finished(ctx);
}
