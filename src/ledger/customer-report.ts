// The customer reports every front door shows (`proxyctl customers …`, the MCP tools
// list_customers and get_statement): the ledger's debits and the API's units, priced by the
// profile's price book (billing.ts). The front doors read the book from the profile and pass it in.
import type { ApiClient } from '../api/client.js';
import { allUnits, getPrices } from '../api/endpoints.js';
import type { Unit } from '../api/shapes.js';
import { MAX_PAGE_SIZE } from '../units/validate.js';
import { customerOf } from './customer.js';
import {
  buildStatement,
  customerRows,
  knownCustomers,
  renewalDue,
  type CustomerPrice,
  type CustomerRow,
  type PriceBook,
  type Renewal,
  type Statement,
} from './billing.js';
import type { LedgerEntry } from './journal.js';
import type { JournalStore } from './store.js';
import type { Window } from './window.js';

export interface ReportSources {
  journal: Pick<JournalStore, 'read'>;
  book: PriceBook;
}

const DAY_MS = 86_400_000;
/** `customers show`: what renewing everything due within this many days costs and bills. */
export const RENEWAL_DAYS = 7;

/** The account's active units (the API's default list), every page. */
async function activeUnits(api: ApiClient): Promise<Unit[]> {
  const units: Unit[] = [];
  for await (const u of allUnits(api, { pageSize: MAX_PAGE_SIZE })) if (u.status === undefined || u.status === 'ACTIVE') units.push(u);
  return units;
}

const tagOf = (u: Unit) => customerOf(typeof u.description === 'string' ? u.description : undefined);

/** One row per customer (and the untagged row) for the window. */
export async function listCustomers(api: ApiClient, s: ReportSources, window: Window): Promise<CustomerRow[]> {
  const [entries, units] = await Promise.all([s.journal.read(), activeUnits(api)]);
  return customerRows(entries, units, s.book, window);
}

export interface CustomerDetail extends Omit<CustomerRow, 'customer'> {
  customer: string;
  from: string;
  to: string;
  /** The customer's own prices, and the profile's default markup they fall back to. */
  pricing: CustomerPrice & { defaultMarkupPercent?: number | undefined };
  renewal: Renewal;
  units: Unit[];
}

/**
 * `customers show NAME`: the customer's active units, their spend in the window, and what renewing
 * the units due within RENEWAL_DAYS costs and bills. undefined when the name has no active unit and
 * no debit ever (a typo, or a customer long gone).
 */
export async function customerDetail(
  api: ApiClient,
  s: ReportSources,
  name: string,
  window: Window,
  now: Date,
): Promise<CustomerDetail | undefined> {
  const [entries, units] = await Promise.all([s.journal.read(), activeUnits(api)]);
  const own = units.filter((u) => tagOf(u) === name);
  if (own.length === 0 && !entries.some((e) => e.customer === name)) return undefined;
  // Prices only when something is due: a customer with nothing to renew costs no extra request.
  const due = new Date(now.getTime() + RENEWAL_DAYS * DAY_MS);
  const anyDue = own.some((u) => typeof u.expiresAt === 'string' && Date.parse(u.expiresAt) < due.getTime());
  const prices = anyDue ? await getPrices(api) : {};
  const row = customerRows(entries, own, s.book, window).find((r) => r.customer === name) ?? {
    activeUnits: 0,
    nextExpiry: null,
    costUsd: 0,
    billedUsd: 0,
    marginUsd: 0,
  };
  return {
    customer: name,
    from: window.since.toISOString(),
    to: window.until.toISOString(),
    activeUnits: row.activeUnits,
    nextExpiry: row.nextExpiry,
    costUsd: row.costUsd,
    billedUsd: row.billedUsd,
    marginUsd: row.marginUsd,
    pricing: {
      ...s.book.customers[name],
      ...(s.book.defaultMarkupPercent !== undefined ? { defaultMarkupPercent: s.book.defaultMarkupPercent } : {}),
    },
    renewal: renewalDue(own, entries, name, prices, s.book, due),
    units: own,
  };
}

/**
 * `customers statement NAME`: undefined for a name that is no customer: no debit in the ledger was
 * ever attributed to it, it has no prices, and (asked of the API only then) no active unit is
 * tagged with it. A customer whose units were bought elsewhere gets an empty statement.
 */
export async function statementOf(api: ApiClient, s: ReportSources, name: string, window: Window): Promise<Statement | undefined> {
  const entries = await s.journal.read();
  if (!knownCustomers(entries, s.book).includes(name) && !(await activeUnits(api)).some((u) => tagOf(u) === name)) return undefined;
  return buildStatement(entries, name, window, s.book);
}

export interface AllStatements {
  /** One per customer with a debit in the window, alphabetical. */
  statements: Statement[];
  /** Debits in the window no customer is attributed to: on no statement. */
  untagged: { count: number; costUsd: number };
}

/** `customers statement --all`: every customer's statement for the window. */
export async function allStatements(s: ReportSources, window: Window): Promise<AllStatements> {
  const entries = await s.journal.read();
  const inWindow = (e: LedgerEntry) => {
    const t = Date.parse(e.at);
    return t >= window.since.getTime() && t < window.until.getTime();
  };
  const statements = knownCustomers(entries, s.book)
    .map((name) => buildStatement(entries, name, window, s.book))
    .filter((st) => st.lines.length > 0);
  const untagged = entries.filter((e) => e.customer === undefined && inWindow(e));
  const costCents = untagged.reduce((sum, e) => sum + Math.round(e.priceUsd * 100), 0);
  return { statements, untagged: { count: untagged.length, costUsd: costCents / 100 } };
}
