// What `proxyctl spend` shows: the journal's debits in a window, one row each or totals per group
// (the reconciliation with the balance readings is reconcile.ts).
import type { Journal, LedgerEntry } from './journal.js';
import { recordSighting } from './sightings.js';

export const GROUPINGS = ['day', 'week', 'month', 'customer', 'pool', 'country', 'period'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface SpendGroup {
  group: string;
  count: number;
  created: number;
  extended: number;
  totalUsd: number;
}

const cents = (n: number) => Math.round(n * 100);

/** Whether a time (ISO 8601) falls in [since, until); an open end is unbounded. */
export function isWithin(at: string, since: Date | undefined, until: Date | undefined): boolean {
  const t = Date.parse(at);
  return t >= (since?.getTime() ?? -Infinity) && t < (until?.getTime() ?? Infinity);
}

export function inWindow(entries: readonly LedgerEntry[], since: Date | undefined, until: Date | undefined): LedgerEntry[] {
  return entries.filter((e) => isWithin(e.at, since, until));
}

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** ISO 8601 week of the local date, e.g. 2026-W48. */
function isoWeek(d: Date): string {
  const day = new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()));
  const dow = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - dow);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${pad(week)}`;
}

function keyOf(e: LedgerEntry, by: Grouping): string {
  const d = new Date(e.at);
  switch (by) {
    case 'day':
      return localDay(d);
    case 'week':
      return isoWeek(d);
    case 'month':
      return localDay(d).slice(0, 7);
    case 'customer':
      return e.customer ?? '(none)';
    case 'pool':
      return e.poolId ?? '(unknown)';
    case 'country':
      return e.country ?? '(unknown)';
    case 'period':
      return e.period ?? '(unknown)';
  }
}

/** Totals per group, in group order (dates ascending, names alphabetical, "(none)" last). */
export function groupSpend(entries: readonly LedgerEntry[], by: Grouping): SpendGroup[] {
  const groups = new SpendGroups(by);
  for (const e of entries) groups.add(e);
  return groups.list();
}

/** groupSpend as the debits stream past (JournalStore.pages): what it holds is one line per group. */
export class SpendGroups {
  private readonly groups = new Map<string, { count: number; created: number; extended: number; cents: number }>();

  constructor(private readonly by: Grouping) {}

  add(e: LedgerEntry): void {
    const k = keyOf(e, this.by);
    let g = this.groups.get(k);
    if (!g) {
      g = { count: 0, created: 0, extended: 0, cents: 0 };
      this.groups.set(k, g);
    }
    g.count++;
    if (e.operation === 'create') g.created++;
    else g.extended++;
    g.cents += cents(e.priceUsd);
  }

  list(): SpendGroup[] {
    const last = (k: string) => (k.startsWith('(') ? 1 : 0);
    return [...this.groups.entries()]
      .sort(([a], [b]) => last(a) - last(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map(([group, g]) => ({ group, count: g.count, created: g.created, extended: g.extended, totalUsd: g.cents / 100 }));
  }
}

/** How many debits passed, and their sum (totalUsd's arithmetic: whole cents, so any order gives the same). */
export class SpendTally {
  count = 0;
  private cents = 0;

  add(e: LedgerEntry): void {
    this.count++;
    this.cents += cents(e.priceUsd);
  }

  get totalUsd(): number {
    return this.cents / 100;
  }
}

/** The pages' debits in [since, until), as pages (empty ones dropped), each counted into `tally` as it passes. */
export async function* inWindowPages(
  pages: AsyncIterable<readonly LedgerEntry[]>,
  since: Date | undefined,
  until: Date | undefined,
  tally: SpendTally,
): AsyncGenerator<readonly LedgerEntry[]> {
  for await (const page of pages) {
    const kept = since || until ? inWindow(page, since, until) : page;
    for (let i = 0; i < kept.length; i++) tally.add(kept[i]!);
    if (kept.length > 0) yield kept;
  }
}

export function totalUsd(entries: readonly { priceUsd: number }[]): number {
  return entries.reduce((s, e) => s + cents(e.priceUsd), 0) / 100;
}

/** A balance proxyctl read, noted after the read by the run that made it (the SDK's purchases); see sightings.ts. */
export interface BalanceReading {
  at: string;
  balanceUsd: number;
}

export async function recordBalance(journal: Journal, reading: BalanceReading): Promise<void> {
  await recordSighting(journal, reading);
}
