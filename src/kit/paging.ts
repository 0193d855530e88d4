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

/**
 * The pages of a paged list, for printList's `{ pages }`: the items of each page that `keep` accepts
 * (all without it), at most `limit` in all; stops reading once the limit is reached, so no further
 * page is fetched. One await per page rather than per item (10,000-unit exports).
 */
export async function* takePages<T>(
  pages: AsyncIterable<{ items: T[] }>,
  limit: number | undefined,
  keep?: (item: T) => boolean,
): AsyncGenerator<T[]> {
  let left = limit ?? Number.POSITIVE_INFINITY;
  if (left <= 0) return;
  for await (const { items } of pages) {
    const kept = keep ? items.filter(keep) : items;
    if (kept.length >= left) {
      yield kept.slice(0, left);
      return;
    }
    left -= kept.length;
    yield kept;
  }
}
