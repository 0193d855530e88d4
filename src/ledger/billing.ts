// What each customer costs, is billed and earns: the ledger's debits (attributed by journal.ts's
// one rule) priced by the profile's price book. Everything is counted in cents (integers); a line's
// bill is rounded to the cent on its own (half a cent up), and totals are sums of lines, so a
// statement's total is always the sum of what its lines say.
//
// Which price a debit is billed at, for a customer (`customers set`):
// 1. a fixed price for the debit's period (`--price 7d=30`: one unit for one period, bought or
//    extended, is billed 30);
// 2. else the customer's markup (`--markup 30%`: cost × 1.30);
// 3. else the profile's `config set default-markup`;
// 4. else the cost itself.
// A debit no customer is attributed to (untagged) is billed to nobody: 0, its margin −cost.
import { PERIODS, type Period } from '../api/enums.js';
import { UsageError } from '../errors.js';
import type { Unit } from '../api/shapes.js';
import { renewalPeriod } from '../units/fleet.js';
import { customerOf } from './customer.js';
import type { LedgerEntry } from './journal.js';
import type { Window } from './window.js';

/** A customer's prices: a markup in percent, fixed USD prices per period, or both. */
export interface CustomerPrice {
  markupPercent?: number | undefined;
  prices?: Partial<Record<Period, number>> | undefined;
}

export interface PriceBook {
  defaultMarkupPercent?: number | undefined;
  customers: Record<string, CustomerPrice>;
}

export type Basis = 'price' | 'markup' | 'default-markup' | 'cost' | 'untagged';

export const cents = (usd: number): number => Math.round(usd * 100);
const usd = (c: number): number => c / 100;

/** Up to 10,000% with at most two decimals: enough for any real markup, and exact in basis points. */
const MARKUP = /^(\d{1,5})(\.\d{1,2})?%?$/;

/** `30%` (or `30`, `12.5%`) as a percent; anything else, a negative one included, is exit 2. */
export function parseMarkup(raw: string, flag = '--markup'): number {
  const s = raw.trim();
  const n = Number(s.replace(/%$/, ''));
  if (!MARKUP.test(s) || !Number.isFinite(n) || n > 10_000)
    throw new UsageError(`${flag} must be a percentage from 0% to 10000%, such as 30% or 12.5%; got "${raw}"`);
  return n;
}

/** `7d=30` pairs: a period the API sells and a USD amount (at most two decimals). */
export function parsePrices(raws: readonly string[], flag = '--price'): Partial<Record<Period, number>> {
  const out: Partial<Record<Period, number>> = {};
  for (const raw of raws) {
    const m = /^([^=]+)=(.*)$/.exec(raw.trim());
    if (!m) throw new UsageError(`${flag} must be PERIOD=USD, such as 7d=30; got "${raw}"`);
    const period = m[1]!.trim();
    if (!(PERIODS as readonly string[]).includes(period))
      throw new UsageError(`${flag} "${raw}": unknown period "${period}" (periods: ${PERIODS.join(', ')})`);
    const amount = m[2]!.trim();
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(amount))
      throw new UsageError(`${flag} "${raw}": the price must be an amount in USD such as 30 or 12.50; got "${amount}"`);
    out[period as Period] = Number(amount);
  }
  return out;
}

/** A markup as typed back: 30 → "30%". */
export const markupText = (percent: number): string => `${percent}%`;

/**
 * The price book in a profile's settings. A value a hand edit broke is left out (that customer is
 * billed by the next rule down), never guessed.
 */
export function priceBookOf(profile: { defaultMarkupPercent?: unknown; customerPrices?: unknown } | undefined): PriceBook {
  const percent = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  const book: PriceBook = { defaultMarkupPercent: percent(profile?.defaultMarkupPercent), customers: {} };
  const stored = profile?.customerPrices;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return book;
  for (const [name, raw] of Object.entries(stored as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const p = raw as { markupPercent?: unknown; prices?: unknown };
    const prices: Partial<Record<Period, number>> = {};
    if (typeof p.prices === 'object' && p.prices !== null) {
      for (const [period, amount] of Object.entries(p.prices as Record<string, unknown>)) {
        if ((PERIODS as readonly string[]).includes(period) && percent(amount) !== undefined) prices[period as Period] = amount as number;
      }
    }
    const markupPercent = percent(p.markupPercent);
    if (markupPercent !== undefined || Object.keys(prices).length > 0)
      book.customers[name] = {
        ...(markupPercent !== undefined ? { markupPercent } : {}),
        ...(Object.keys(prices).length ? { prices } : {}),
      };
  }
  return book;
}

/** Whether any price is set: without one every bill is the cost, and reports leave billing out. */
export function hasPrices(book: PriceBook): boolean {
  return book.defaultMarkupPercent !== undefined || Object.keys(book.customers).length > 0;
}

/** Cost plus a markup, to the cent, half a cent up; in basis points so 12.5% is exact. */
function marked(costCents: number, percent: number): number {
  const bp = Math.round(percent * 100);
  return Math.floor((costCents * (10_000 + bp) + 5_000) / 10_000);
}

/** What one line (a unit for a period) is billed, in cents, and by which rule. */
export function bill(
  costCents: number,
  customer: string | undefined,
  period: string | undefined,
  book: PriceBook,
): { cents: number; basis: Basis } {
  if (customer === undefined) return { cents: 0, basis: 'untagged' };
  const own = book.customers[customer];
  const fixed = period === undefined ? undefined : own?.prices?.[period as Period];
  if (fixed !== undefined) return { cents: cents(fixed), basis: 'price' };
  if (own?.markupPercent !== undefined) return { cents: marked(costCents, own.markupPercent), basis: 'markup' };
  if (book.defaultMarkupPercent !== undefined) return { cents: marked(costCents, book.defaultMarkupPercent), basis: 'default-markup' };
  return { cents: costCents, basis: 'cost' };
}

/** A debit's bill, in cents. */
export function billedCents(e: LedgerEntry, book: PriceBook): number {
  return bill(cents(e.priceUsd), e.customer, e.period, book).cents;
}

function inside(at: string, w: Window): boolean {
  const t = Date.parse(at);
  return t >= w.since.getTime() && t < w.until.getTime();
}

const isActive = (u: Unit) => u.status === undefined || u.status === 'ACTIVE';

export interface CustomerRow {
  /** null: the row of debits and units no customer is attributed to. */
  customer: string | null;
  activeUnits: number;
  /** The soonest expiry (ISO 8601) of the customer's active units, null with none. */
  nextExpiry: string | null;
  costUsd: number;
  billedUsd: number;
  marginUsd: number;
}

export const CUSTOMER_FIELDS = ['customer', 'activeUnits', 'nextExpiry', 'costUsd', 'billedUsd', 'marginUsd'] as const;

/**
 * One row per customer: every customer with an active unit, a debit in the window or prices set,
 * alphabetical, then the untagged row when untagged units or spend exist. Units are the API's
 * (their tag now); debits the ledger's in the window (the customer the unit had when debited).
 */
export function customerRows(entries: readonly LedgerEntry[], units: Iterable<Unit>, book: PriceBook, window: Window): CustomerRow[] {
  type Acc = { active: number; next: string | null; cost: number; billed: number };
  const acc = new Map<string | null, Acc>();
  const of = (name: string | null) => {
    const a = acc.get(name) ?? { active: 0, next: null, cost: 0, billed: 0 };
    acc.set(name, a);
    return a;
  };
  for (const name of Object.keys(book.customers)) of(name);
  for (const u of units) {
    if (!isActive(u)) continue;
    const a = of(customerOf(typeof u.description === 'string' ? u.description : undefined) ?? null);
    a.active += 1;
    const exp = typeof u.expiresAt === 'string' && Number.isFinite(Date.parse(u.expiresAt)) ? u.expiresAt : undefined;
    if (exp && (a.next === null || Date.parse(exp) < Date.parse(a.next))) a.next = exp;
  }
  for (const e of entries) {
    if (!inside(e.at, window)) continue;
    const a = of(e.customer ?? null);
    const c = cents(e.priceUsd);
    a.cost += c;
    a.billed += bill(c, e.customer, e.period, book).cents;
  }
  const names = [...acc.keys()].filter((n): n is string => n !== null).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const order: (string | null)[] = acc.has(null) ? [...names, null] : names;
  return order.map((customer) => {
    const a = acc.get(customer)!;
    return {
      customer,
      activeUnits: a.active,
      nextExpiry: a.next === null ? null : new Date(a.next).toISOString(),
      costUsd: usd(a.cost),
      billedUsd: usd(a.billed),
      marginUsd: usd(a.billed - a.cost),
    };
  });
}

export interface StatementLine {
  at: string;
  ref: string;
  operation: 'create' | 'extend';
  poolId: string | null;
  period: string | null;
  costUsd: number;
  billedUsd: number;
}

export interface Statement {
  customer: string;
  from: string;
  to: string;
  lines: StatementLine[];
  costUsd: number;
  billedUsd: number;
  marginUsd: number;
}

export const STATEMENT_LINE_FIELDS = ['at', 'ref', 'operation', 'poolId', 'period', 'costUsd', 'billedUsd'] as const;

/** Every debit attributed to the customer in the window, oldest first, each billed, and the totals. */
export function buildStatement(entries: readonly LedgerEntry[], customer: string, window: Window, book: PriceBook): Statement {
  let cost = 0;
  let billed = 0;
  const lines = entries
    .filter((e) => e.customer === customer && inside(e.at, window))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((e): StatementLine => {
      const c = cents(e.priceUsd);
      const b = bill(c, customer, e.period, book).cents;
      cost += c;
      billed += b;
      return {
        at: new Date(e.at).toISOString(),
        ref: e.ref,
        operation: e.operation,
        poolId: e.poolId ?? null,
        period: e.period ?? null,
        costUsd: usd(c),
        billedUsd: usd(b),
      };
    });
  return {
    customer,
    from: window.since.toISOString(),
    to: window.until.toISOString(),
    lines,
    costUsd: usd(cost),
    billedUsd: usd(billed),
    marginUsd: usd(billed - cost),
  };
}

/** The customers a statement can be asked for: every one a debit was ever attributed to, or with prices. */
export function knownCustomers(entries: readonly LedgerEntry[], book: PriceBook): string[] {
  const names = new Set(Object.keys(book.customers));
  for (const e of entries) if (e.customer !== undefined) names.add(e.customer);
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Where a renewal's period was read: the unit's last debit, the API's unit, or the nearest period to its first term. */
export type PeriodSource = 'ledger' | 'unit' | 'term';

export interface RenewalLine {
  ref: string;
  expiresAt: string | null;
  period: string | null;
  periodFrom: PeriodSource | null;
  /** null: no price for the period in the API's price list. */
  costUsd: number | null;
  billedUsd: number | null;
}

export interface Renewal {
  /** Units expiring before this time (ISO 8601) are due. */
  dueBefore: string;
  units: RenewalLine[];
  costUsd: number;
  billedUsd: number;
  marginUsd: number;
  /** Units due whose period has no price now (left out of the totals). */
  unpriced: number;
}

/**
 * What renewing every active unit of the customer that expires before `dueBefore` costs (the API's
 * price for the period now, what an extension is charged) and bills (the customer's prices). Each
 * unit is renewed for its own period: the period of its last debit in the ledger; else the one the
 * API gives for the unit; else the period nearest its first term (created → expires).
 */
export function renewalDue(
  units: Iterable<Unit>,
  entries: readonly LedgerEntry[],
  customer: string,
  prices: Record<string, unknown>,
  book: PriceBook,
  dueBefore: Date,
): Renewal {
  const lastPeriod = new Map<string, { at: number; period: string }>();
  for (const e of entries) {
    if (e.period === undefined) continue;
    const t = Date.parse(e.at);
    const seen = lastPeriod.get(e.ref);
    if (!seen || t >= seen.at) lastPeriod.set(e.ref, { at: t, period: e.period });
  }
  let cost = 0;
  let billed = 0;
  let unpriced = 0;
  const lines: RenewalLine[] = [];
  for (const u of units) {
    if (!isActive(u)) continue;
    const exp = typeof u.expiresAt === 'string' ? Date.parse(u.expiresAt) : Number.NaN;
    if (!Number.isFinite(exp) || exp >= dueBefore.getTime()) continue;
    const fromLedger = lastPeriod.get(u.proxyRef)?.period;
    const fromUnit = typeof u.period === 'string' && (PERIODS as readonly string[]).includes(u.period) ? u.period : undefined;
    const period = fromLedger ?? fromUnit ?? renewalPeriod(u);
    const periodFrom: PeriodSource | null = fromLedger ? 'ledger' : fromUnit ? 'unit' : period ? 'term' : null;
    const price = period === undefined ? undefined : prices[period];
    if (typeof price !== 'number' || !Number.isFinite(price)) {
      unpriced += 1;
      lines.push({
        ref: u.proxyRef,
        expiresAt: new Date(exp).toISOString(),
        period: period ?? null,
        periodFrom,
        costUsd: null,
        billedUsd: null,
      });
      continue;
    }
    const c = cents(price);
    const b = bill(c, customer, period, book).cents;
    cost += c;
    billed += b;
    lines.push({
      ref: u.proxyRef,
      expiresAt: new Date(exp).toISOString(),
      period: period ?? null,
      periodFrom,
      costUsd: usd(c),
      billedUsd: usd(b),
    });
  }
  lines.sort((a, b) => Date.parse(a.expiresAt ?? '') - Date.parse(b.expiresAt ?? '') || (a.ref < b.ref ? -1 : 1));
  return {
    dueBefore: dueBefore.toISOString(),
    units: lines,
    costUsd: usd(cost),
    billedUsd: usd(billed),
    marginUsd: usd(billed - cost),
    unpriced,
  };
}

/** `spend --by customer` with prices set: each group's bill and margin beside its total (untagged: billed 0). */
export function withBilling<G extends { group: string; totalUsd: number }>(
  groups: readonly G[],
  entries: readonly LedgerEntry[],
  book: PriceBook,
  untaggedGroup = '(none)',
): (G & { billedUsd: number; marginUsd: number })[] {
  const billed = new BilledTally(book, untaggedGroup);
  for (const e of entries) billed.add(e);
  return billed.beside(groups);
}

/** withBilling as the debits stream past (JournalStore.pages): what it holds is one figure per customer. */
export class BilledTally {
  private readonly billed = new Map<string, number>();

  constructor(
    private readonly book: PriceBook,
    private readonly untaggedGroup = '(none)',
  ) {}

  add(e: LedgerEntry): void {
    const k = e.customer ?? this.untaggedGroup;
    this.billed.set(k, (this.billed.get(k) ?? 0) + billedCents(e, this.book));
  }

  /** Each group's bill and margin beside its total. */
  beside<G extends { group: string; totalUsd: number }>(groups: readonly G[]): (G & { billedUsd: number; marginUsd: number })[] {
    return groups.map((g) => {
      const b = this.billed.get(g.group) ?? 0;
      return { ...g, billedUsd: usd(b), marginUsd: usd(b - cents(g.totalUsd)) };
    });
  }
}
