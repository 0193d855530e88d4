// Choosing units on the client side, after paging: the API filters by status, pool and expiry,
// but not by description, so a customer tag kept in `description` is matched here (any case).
// A customer is selected by its exact tag (`customer=acme` is not `customer=acme-corp`); a
// description text is a substring and selects no customer. The selections of `units extend
// --expiring-within`, `units release --customer`, `units check --customer`, `units modify --tagged`
// and the MCP's quote_extend are made of these rules (collectSelection); the commands ask and list
// (src/commands/units/expiring-selection.ts).
import { customerOf } from '../ledger/customer.js';
import type { Unit } from './types.js';
import { MAX_PAGE_SIZE } from './validate.js';

/** True for a unit whose description contains `text`, ignoring case; every unit when `text` is undefined. */
export function descriptionMatcher(text: string | undefined): (u: Unit) => boolean {
  if (text === undefined) return () => true;
  const needle = text.toLocaleLowerCase();
  return (u) => typeof u.description === 'string' && u.description.toLocaleLowerCase().includes(needle);
}

/** Units tagged for this customer (`customer=NAME` in the description, any case); every unit without a name. */
export function customerMatcher(name: string | undefined): (u: Unit) => boolean {
  if (name === undefined) return () => true;
  const wanted = name.toLowerCase();
  return (u) => customerOf(typeof u.description === 'string' ? u.description : undefined)?.toLowerCase() === wanted;
}

/** What a unit list is narrowed by on the client, where the API has no query parameter for it. */
export interface UnitCriteria {
  descriptionContains?: string | undefined;
  customer?: string | undefined;
  /** An ISO code, already checked and uppercased (countryCode). */
  country?: string | undefined;
  /** The wire value (parseProtocol: inject is http_noauth). */
  protocol?: string | undefined;
  /** A carrier's name, in any case. */
  provider?: string | undefined;
}

/** The client-side filters of a unit list together; undefined when none is asked for. */
export function unitFilter(o: UnitCriteria): ((u: Unit) => boolean) | undefined {
  const checks: ((u: Unit) => boolean)[] = [];
  if (o.descriptionContains !== undefined) checks.push(descriptionMatcher(o.descriptionContains));
  if (o.customer !== undefined) checks.push(customerMatcher(o.customer));
  if (o.country !== undefined) checks.push(fieldIs('country', o.country));
  if (o.protocol !== undefined) checks.push(fieldIs('protocol', o.protocol));
  if (o.provider !== undefined) checks.push(fieldIs('provider', o.provider));
  if (checks.length === 0) return undefined;
  return (u) => checks.every((check) => check(u));
}

/** A unit whose `field` is `value`, ignoring case (a carrier typed `verizon` is Verizon). */
function fieldIs(field: 'country' | 'protocol' | 'provider', value: string): (u: Unit) => boolean {
  const wanted = value.toLowerCase();
  return (u) => typeof u[field] === 'string' && (u[field] as string).toLowerCase() === wanted;
}

/** Seconds a unit has left: the server's `expiresIn` (recomputed on every read), else `expiresAt` against `now`. */
export function secondsLeft(u: Unit, now: number): number | undefined {
  if (typeof u.expiresIn === 'number') return u.expiresIn;
  const t = typeof u.expiresAt === 'string' ? Date.parse(u.expiresAt) : Number.NaN;
  return Number.isFinite(t) ? Math.round((t - now) / 1000) : undefined;
}

/** True for an active unit whose remaining time is within `hours` (the server's answer, checked again). */
export function expiringWithin(hours: number, now: number): (u: Unit) => boolean {
  return (u) => {
    if (u.status !== undefined && u.status !== 'ACTIVE') return false;
    const left = secondsLeft(u, now);
    return left !== undefined && left > 0 && left <= hours * 3600;
  };
}

/**
 * A selection of active units: narrowed by pool (asked of the server), expiring within `hours`
 * (asked of the server, checked again here), the exact customer tag and a description text.
 */
export interface SelectionCriteria {
  /** Expiring within this many hours; any expiry when undefined. */
  hours?: number | undefined;
  poolId?: string | undefined;
  /** --customer (parseCustomer): the exact `customer=NAME` tag, in any case. */
  customer?: string | undefined;
  /** --description-contains: a substring of the description, in any case. */
  text?: string | undefined;
}

/** What `units extend --expiring-within` selects: active units expiring within `hours`, narrowed by pool, customer and description. */
export interface ExpiringCriteria extends SelectionCriteria {
  hours: number;
}

/** The list query that asks the server for the selection (it filters by status, pool and expiry). */
export function selectionQuery(c: SelectionCriteria) {
  return { status: 'ACTIVE', poolId: c.poolId, expiringWithinHours: c.hours, pageSize: MAX_PAGE_SIZE };
}

/** The renewal's query: selectionQuery with its hours. */
export const expiringQuery: (c: ExpiringCriteria) => ReturnType<typeof selectionQuery> = selectionQuery;

/**
 * The selection, ref → unit, from every listed unit: active, the server's expiry filter checked
 * again at `now`, then the customer tag and the description. A unit listed twice (the list moved
 * between pages) is kept once, so it is acted on once. The CLI and the MCP select through this.
 */
export async function collectSelection(units: AsyncIterable<Unit>, c: SelectionCriteria, now: number): Promise<Map<string, Unit>> {
  const due = c.hours === undefined ? (u: Unit) => u.status === undefined || u.status === 'ACTIVE' : expiringWithin(c.hours, now);
  const matches = unitFilter({ customer: c.customer, descriptionContains: c.text }) ?? (() => true);
  const selected = new Map<string, Unit>();
  for await (const u of units) {
    if (due(u) && matches(u) && !selected.has(u.proxyRef)) selected.set(u.proxyRef, u);
  }
  return selected;
}

/** The renewal's selection: collectSelection with its hours. */
export const collectExpiring: (units: AsyncIterable<Unit>, c: ExpiringCriteria, now: number) => Promise<Map<string, Unit>> =
  collectSelection;

/** ' in pool US-12 tagged customer=acme whose description contains "vip"' ('' for none). */
function narrowedBy(c: SelectionCriteria, text = (t: string) => ` whose description contains "${t}"`): string {
  const pool = c.poolId ? ` in pool ${c.poolId}` : '';
  const customer = c.customer !== undefined ? ` tagged customer=${c.customer}` : '';
  return `${pool}${customer}${c.text !== undefined ? text(c.text) : ''}`;
}

/** "3 units expiring within 24 h in pool US-12 whose description contains "acme" (PRX-1, PRX-2, PRX-3)" */
export function describeSelection(refs: readonly string[], c: SelectionCriteria): string {
  const units = refs.length === 1 ? '1 unit' : `${refs.length} units`;
  const within = c.hours !== undefined ? ` expiring within ${c.hours} h` : '';
  return `${units}${within}${narrowedBy(c)} (${someRefs(refs)})`;
}

/** An empty selection, said instead of a list: "No active units expire within 24 h tagged customer=acme; nothing was extended." */
export function nothingSelected(c: SelectionCriteria, done = 'extended'): string {
  const within = c.hours !== undefined ? ` expire within ${c.hours} h` : '';
  return `No active units${within}${narrowedBy(c, (t) => ` with "${t}" in their description`)}; nothing was ${done}.`;
}

/** The renewal's empty selection: nothingSelected. */
export const nothingExpiring: (c: ExpiringCriteria) => string = (c) => nothingSelected(c);

/** ref → poolId of each selected unit that names its pool (for the per-pool stop, src/units/pool-stop.ts). */
export function poolsByRef(units: ReadonlyMap<string, Unit>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [ref, u] of units) if (typeof u.poolId === 'string') out.set(ref, u.poolId);
  return out;
}

/** "PRX-1, PRX-2, PRX-3 and 7 more" */
export function someRefs(refs: readonly string[]): string {
  return refs.length > 5 ? `${refs.slice(0, 5).join(', ')} and ${refs.length - 5} more` : refs.join(', ');
}
