// What a unit list asks the server and what it then keeps, for every front door (`units list`, the
// agent's list_units): the API filters by status, pool and expiry; description, customer, country,
// protocol and carrier are matched on the client as pages arrive (unitFilter). Every value is
// checked here, before any request.
import type { Query } from '../api/client.js';
import { parseHours } from '../globals.js';
import { UsageError } from '../errors.js';
import { parseCustomer } from '../ledger/customer.js';
import { countryCode, normalisePoolIdFlag } from './catalogue-ids.js';
import type { UnitCriteria } from './select.js';
import { parseSort, type UnitOrder } from './sort.js';
import { MAX_PAGE_SIZE, parseProtocol, parseStatus } from './validate.js';

/** The list's filters as given (flags, or an agent's arguments in the same words). */
export interface UnitListFilters {
  status?: string | undefined;
  pool?: string | undefined;
  includeExpired?: boolean | undefined;
  /** Hours (24) or a duration (36h, 1d12h). */
  expiringWithin?: string | undefined;
  descriptionContains?: string | undefined;
  customer?: string | undefined;
  country?: string | undefined;
  protocol?: string | undefined;
  provider?: string | undefined;
  sort?: string | undefined;
}

/** Which part of the list is read: the front door's paging, already checked. */
export interface UnitListPaging {
  page?: number | undefined;
  pageSize?: number | undefined;
  limit: number | undefined;
  onePage: boolean;
}

/** What the list asks the server, and what it then keeps (the criteria), in which order, how many. */
export interface ListOptions extends UnitCriteria {
  query: Query;
  limit: number | undefined;
  onePage: boolean;
  /** --sort: the whole list (or the one page) in this order. */
  sort?: UnitOrder | undefined;
}

export function parseUnitList(f: UnitListFilters, paging: UnitListPaging): ListOptions {
  const sort = parseSort(f.sort);
  const query: Query = {
    status: parseStatus(f.status),
    poolId: normalisePoolIdFlag(f.pool),
    includeExpired: f.includeExpired ? true : undefined,
    expiringWithinHours: parseHours(f.expiringWithin, '--expiring-within'),
    page: paging.page,
    // A sorted list is read whole, so in the largest pages even when --limit is small.
    pageSize: sort && !paging.onePage ? MAX_PAGE_SIZE : paging.pageSize,
  };
  const provider = f.provider?.trim();
  if (provider === '') throw new UsageError('--provider needs a carrier name, e.g. Verizon (proxyctl providers lists them)');
  return {
    query,
    limit: paging.limit,
    onePage: paging.onePage,
    sort,
    descriptionContains: f.descriptionContains,
    customer: f.customer === undefined ? undefined : parseCustomer(f.customer),
    country: countryCode(f.country),
    protocol: f.protocol === undefined ? undefined : parseProtocol(f.protocol),
    provider,
  };
}
