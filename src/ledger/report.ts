// What `proxyctl spend` shows: the journal's debits in a window, one row each or totals per group,
// and a reconciliation of the debits with the balance readings proxyctl took along the way.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Journal, LedgerEntry } from './journal.js';

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
  const groups = new Map<string, { count: number; created: number; extended: number; cents: number }>();
  for (const e of entries) {
    const k = keyOf(e, by);
    const g = groups.get(k) ?? { count: 0, created: 0, extended: 0, cents: 0 };
    g.count++;
    if (e.operation === 'create') g.created++;
    else g.extended++;
    g.cents += cents(e.priceUsd);
    groups.set(k, g);
  }
  const last = (k: string) => (k.startsWith('(') ? 1 : 0);
  return [...groups.entries()]
    .sort(([a], [b]) => last(a) - last(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, g]) => ({ group, count: g.count, created: g.created, extended: g.extended, totalUsd: g.cents / 100 }));
}

export function totalUsd(entries: readonly { priceUsd: number }[]): number {
  return entries.reduce((s, e) => s + cents(e.priceUsd), 0) / 100;
}

/** A balance proxyctl read back after charging (or at login/account), beside the journal. */
export interface BalanceReading {
  at: string;
  balanceUsd: number;
}

function readingsPath(journal: Journal): string {
  return join(journal.dir, `${journal.account}.balances.jsonl`);
}

export async function recordBalance(journal: Journal, reading: BalanceReading): Promise<void> {
  await mkdir(journal.dir, { recursive: true, mode: 0o700 });
  await appendFile(readingsPath(journal), `${JSON.stringify(reading)}\n`, { mode: 0o600, flag: 'a' });
}

export async function readBalances(journal: Journal): Promise<BalanceReading[]> {
  let text: string;
  try {
    text = await readFile(readingsPath(journal), 'utf8');
  } catch {
    return [];
  }
  const out: BalanceReading[] = [];
  for (const line of text.split('\n')) {
    try {
      const r = JSON.parse(line) as BalanceReading;
      if (typeof r.at === 'string' && typeof r.balanceUsd === 'number' && Number.isFinite(Date.parse(r.at))) out.push(r);
    } catch {
      // a line cut short by a kill
    }
  }
  return out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** One stretch between two balance readings where the balance moved by other than the ledger's debits. */
export interface Unexplained {
  from: string;
  to: string;
  balanceBefore: number;
  balanceAfter: number;
  /** What the ledger's debits in the stretch account for (a fall in the balance). */
  debitedUsd: number;
  /** balanceBefore − debited − balanceAfter: positive is money gone that the ledger does not show. */
  unexplainedUsd: number;
}

/** Stretches between consecutive readings whose balance change the ledger does not account for. */
export function reconcile(entries: readonly LedgerEntry[], readings: readonly BalanceReading[]): Unexplained[] {
  const out: Unexplained[] = [];
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1]!;
    const b = readings[i]!;
    const t0 = Date.parse(a.at);
    const t1 = Date.parse(b.at);
    const debited = entries.filter((e) => {
      const t = Date.parse(e.at);
      return t > t0 && t <= t1;
    });
    const gap = cents(a.balanceUsd) - cents(totalUsd(debited)) - cents(b.balanceUsd);
    if (gap !== 0) {
      out.push({
        from: a.at,
        to: b.at,
        balanceBefore: a.balanceUsd,
        balanceAfter: b.balanceUsd,
        debitedUsd: totalUsd(debited),
        unexplainedUsd: gap / 100,
      });
    }
  }
  return out;
}
