// Choosing units on the client side, after paging: the API filters by status, pool and expiry,
// but not by description, so a customer tag kept in `description` is matched here (any case).
// The selection of `units extend --expiring-within` is made of these rules; the command asks
// and lists (src/commands/units/expiring-selection.ts).
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

/** What `units extend --expiring-within` selects: active units expiring within `hours`, narrowed by pool and description. */
export interface ExpiringCriteria {
  hours: number;
  poolId?: string | undefined;
  /** --description-contains */
  text?: string | undefined;
}

/** The list query that asks the server for the selection (it filters by status, pool and expiry). */
export function expiringQuery(c: ExpiringCriteria) {
  return { status: 'ACTIVE', poolId: c.poolId, expiringWithinHours: c.hours, pageSize: MAX_PAGE_SIZE };
}

/**
 * The selection, ref → unit, from every listed unit: the server's expiry filter checked again at
 * `now`, then the description. A unit listed twice (the list moved between pages) is kept once,
 * so it is extended once.
 */
export async function collectExpiring(units: AsyncIterable<Unit>, c: ExpiringCriteria, now: number): Promise<Map<string, Unit>> {
  const due = expiringWithin(c.hours, now);
  const matches = descriptionMatcher(c.text);
  const selected = new Map<string, Unit>();
  for await (const u of units) {
    if (due(u) && matches(u) && !selected.has(u.proxyRef)) selected.set(u.proxyRef, u);
  }
  return selected;
}

/** "3 units expiring within 24 h in pool US-12 whose description contains "acme" (PRX-1, PRX-2, PRX-3)" */
export function describeSelection(refs: readonly string[], c: ExpiringCriteria): string {
  const units = refs.length === 1 ? '1 unit' : `${refs.length} units`;
  const pool = c.poolId ? ` in pool ${c.poolId}` : '';
  const tag = c.text !== undefined ? ` whose description contains "${c.text}"` : '';
  return `${units} expiring within ${c.hours} h${pool}${tag} (${someRefs(refs)})`;
}

/** An empty selection, said instead of a list. */
export function nothingExpiring(c: ExpiringCriteria): string {
  const pool = c.poolId ? ` in pool ${c.poolId}` : '';
  const tag = c.text !== undefined ? ` with "${c.text}" in their description` : '';
  return `No active units expire within ${c.hours} h${pool}${tag}; nothing was extended.`;
}

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
