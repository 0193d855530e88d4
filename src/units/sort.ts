// `units list --sort FIELD`: the order a reseller reads a fleet in. The API lists units by pool
// only, so sorting is done here, on the whole list (the one place a unit list is held whole before
// printing: the first unit in the order may be on the last page).
import { UsageError } from '../errors.js';
import type { Unit } from './types.js';

export const SORT_FIELDS = ['expiry', 'created', 'pool', 'country', 'ref'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface UnitOrder {
  field: SortField;
  descending: boolean;
}

/** `expiry`, `-expiry` (descending), any case; exit 2 before any request for anything else. */
export function parseSort(raw: string | undefined): UnitOrder | undefined {
  if (raw === undefined) return undefined;
  const v = raw.trim().toLowerCase();
  const descending = v.startsWith('-');
  const field = descending ? v.slice(1) : v;
  if (!(SORT_FIELDS as readonly string[]).includes(field))
    throw new UsageError(`--sort must be one of ${SORT_FIELDS.join(', ')} (-FIELD for descending), got "${raw}"`);
  return { field: field as SortField, descending };
}

/** Time as a number, or undefined when the unit has none the client can read. */
function time(v: unknown): number | undefined {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) ? t : undefined;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const KEYS: Record<SortField, (u: Unit) => number | string | undefined> = {
  expiry: (u) => time(u.expiresAt),
  created: (u) => time(u.createdAt),
  pool: (u) => text(u.poolId),
  country: (u) => text(u.country),
  ref: (u) => text(u.proxyRef),
};

// Ids hold numbers: US-9 before US-12, PRX-99 before PRX-100. Made on the first sort, not at
// load: building a collator costs a command's start more than anything else of ours
// (bench/RESULTS.md), and most runs of `units list` never sort.
let natural: Intl.Collator | undefined;

/** Ids in their natural order (US-9 before US-12), any case. */
export function naturalCompare(a: string, b: string): number {
  natural ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  return natural.compare(a, b);
}

/**
 * The units in `order`, as a new array. A unit without the field comes last either way; ties keep
 * the API's order (by pool), so a sort by country lists each country's pools in order.
 */
export function sortUnits(units: readonly Unit[], order: UnitOrder): Unit[] {
  const key = KEYS[order.field];
  const sign = order.descending ? -1 : 1;
  const keyed = units.map((u) => ({ u, k: key(u) }));
  keyed.sort((a, b) => {
    if (a.k === undefined || b.k === undefined) return a.k === b.k ? 0 : a.k === undefined ? 1 : -1;
    const c = typeof a.k === 'number' && typeof b.k === 'number' ? a.k - b.k : naturalCompare(String(a.k), String(b.k));
    return sign * c;
  });
  return keyed.map((x) => x.u);
}
