// Columns and cells taken from the data itself: a column for every field the API sends (known or
// not), nested fields flattened to paths for csv and tsv, and the csv/tsv cell quoting.
import { escapeControl, escapeDeep } from './escape.js';
import { cell } from './format.js';
import type { Column } from './view.js';

/**
 * Known columns first, then a generic column for every other top-level field of the value(s),
 * so fields the API adds later still show in tables.
 */
export function withExtraFields<T>(known: Column<T>[], covered: readonly string[], sample: T[]): Column<T>[] {
  const extra = genericColumns(sample).filter((c) => !covered.includes(c.header) && c.header !== 'value');
  return [...known, ...extra];
}

/**
 * csv columns of a list printed whole (pools, countries, a usage record): the resource's known
 * ones first, always, then every other field found in any of `items`, never only the first's.
 */
export function withExtraFieldNames(known: readonly string[], items: readonly unknown[]): string[] {
  return [...known, ...flatKeys(items).filter((k) => !known.includes(k))];
}

/** Every leaf path (`credentials.username`) of every item, in the order first seen; keys escaped as the rows will be. */
export function flatKeys(items: readonly unknown[]): string[] {
  const keys = new Set<string>();
  for (const item of items) for (const k of Object.keys(flatten(escapeDeep(item)))) keys.add(k);
  return [...keys];
}

export function genericColumns<T>(sample: readonly T[]): Column<T>[] {
  const keys: string[] = [];
  for (const row of sample) {
    if (row && typeof row === 'object') for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  }
  if (keys.length === 0) return [{ header: 'value', value: (r) => r }];
  // Rows may arrive escaped (keys included), so a key with control characters is looked up both ways.
  return keys.map((k) => ({
    header: escapeControl(k),
    value: (r: T) => (r as Record<string, unknown>)?.[k] ?? (r as Record<string, unknown>)?.[escapeControl(k)],
  }));
}

export function flatten(obj: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
      else out[key] = v;
    }
  } else {
    out[prefix || 'value'] = obj;
  }
  return out;
}

export function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.map(cell).join(';') : cell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function tsvField(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ');
}

/** A key/value line per leaf: a sub-object (`units {"active":0}`) becomes `units.active 0`, so scripts can cut it. */
export function tsvPairs(key: string, value: unknown): [string, unknown][] {
  const pairs = Object.entries(flatten(value, key));
  return pairs.length ? pairs : [[key, value]];
}
