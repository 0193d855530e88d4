// Which part of a paged list a list command prints: every item by default, streamed page by page
// (so `units list -o conn > proxies.txt` exports everything with flat memory), at most --limit
// items, or only the page --page/--page-size ask for. --all is the default, kept as an alias.
import { UsageError } from '../errors.js';
import { parseInteger } from './options.js';

export interface PagingFlags {
  page?: string | undefined;
  pageSize?: string | undefined;
  all?: true | undefined;
  limit?: string | undefined;
}

export interface Paging {
  page: number | undefined;
  /** Sent as pageSize: the one asked for, else the smaller of --limit and the largest allowed. */
  pageSize: number | undefined;
  limit: number | undefined;
  /** Only the page asked for: --page or --page-size without --all. */
  onePage: boolean;
}

export function parsePaging(f: PagingFlags, maxPageSize: number, maxPage?: number): Paging {
  const page = parseInteger(f.page, '--page', 1, maxPage);
  const pageSize = parseInteger(f.pageSize, '--page-size', 1, maxPageSize);
  const limit = parseInteger(f.limit, '--limit', 1);
  if (f.all && page !== undefined) throw new UsageError('--all reads every page; drop --page');
  const onePage = !f.all && (page !== undefined || pageSize !== undefined);
  // Streaming every page uses the largest page, so an export takes as few requests as possible.
  return { page, pageSize: pageSize ?? (onePage ? undefined : Math.min(limit ?? maxPageSize, maxPageSize)), limit, onePage };
}

/** The first `limit` items (all without one); stops reading, so no further page is fetched. */
export async function* take<T>(items: AsyncIterable<T>, limit: number | undefined): AsyncGenerator<T> {
  let n = 0;
  if (limit === 0) return;
  for await (const item of items) {
    yield item;
    n += 1;
    if (limit !== undefined && n >= limit) return;
  }
}
