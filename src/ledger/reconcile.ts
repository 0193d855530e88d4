// `spend --reconcile`: the balance readings proxyctl saw, against the debits of the ledger, by time.
//
// Every reading and every debit is known to have happened at some moment of a window on this
// machine's clock (sightings.ts): a reading while its request was on its way, a debit seen
// answered while its request was, a debit entered by a run that resumed a killed one after the
// purchase first left, any other debit at the time it was entered. Readings of parallel runs and
// their debits overlap, so which debits a reading already reflects is not always known; each
// reading is judged on its own, by what it can reflect:
//
//   drop since the first reading = debits certainly between them + some of the uncertain ones + U
//
// where U is what the ledger does not explain up to that reading. U changes only where money moved
// without a debit in the ledger (a top-up, a refund, a purchase made outside proxyctl). Going
// through the readings in time order, U stays as it is while a choice of the uncertain debits
// explains the reading; where none does, U changes to the value that holds for the longest run of
// readings after it, and that change is reported, once, in the stretch where it first shows.
import type { LedgerEntry } from './journal.js';
import type { Reading, Sightings, Window } from './sightings.js';

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

const cents = (n: number) => Math.round(n * 100);

export interface Debit extends Window {
  cents: number;
}

/** When each debit was made, as closely as proxyctl knows it. */
export function debitWindows(entries: readonly LedgerEntry[], s: Pick<Sightings, 'charged' | 'sending'>): Debit[] {
  const out: Debit[] = [];
  for (const e of entries) {
    const at = Date.parse(e.at);
    if (!Number.isFinite(at)) continue;
    const seen = s.charged.get(e.id);
    const left = e.idempotencyKey === undefined ? undefined : s.sending.get(e.idempotencyKey);
    const w = seen ?? (left !== undefined && left <= at ? { from: left, to: at } : { from: at, to: at });
    out.push({ ...w, cents: cents(e.priceUsd) });
  }
  return out;
}

/** More uncertain debits than this around one reading: any total between none and all of them is taken as possible. */
const MAX_EXACT = 24;

/** Which totals (cents) a choice of these debits can make. */
function totals(debits: readonly Debit[]): (x: number) => boolean {
  if (debits.length === 0) return (x) => x === 0;
  const sum = debits.reduce((s, d) => s + d.cents, 0);
  if (debits.length > MAX_EXACT || sum > 5_000_000) return (x) => x >= 0 && x <= sum;
  const can = new Uint8Array(sum + 1);
  can[0] = 1;
  let reach = 0;
  for (const d of debits) {
    for (let x = reach; x >= 0; x--) if (can[x]) can[x + d.cents] = 1;
    reach += d.cents;
  }
  return (x) => x >= 0 && x <= sum && can[x] === 1;
}

/** Every total a choice of these debits can make, smallest first (for the values U may change to). */
function allTotals(debits: readonly Debit[], has: (x: number) => boolean): number[] {
  const sum = debits.reduce((s, d) => s + d.cents, 0);
  const out: number[] = [];
  for (let x = 0; x <= sum && out.length < 4096; x++) if (has(x)) out.push(x);
  return out;
}

/** A reading as the algorithm sees it: the drop it must explain and what the ledger can explain it with. */
interface Judged {
  /** Cents gone since the first reading, less the debits certainly made between the two. */
  rest: number;
  uncertain: Debit[];
  /** totals(uncertain), made when first asked. */
  has?: (x: number) => boolean;
}

export function reconcile(entries: readonly LedgerEntry[], s: Sightings): Unexplained[] {
  return reconcileWindows(debitWindows(entries, s), s);
}

/** reconcile() over the debits' windows (debitWindows), gathered by the caller (a page at a time, say). */
export function reconcileWindows(windows: readonly Debit[], s: Sightings): Unexplained[] {
  const readings = s.readings;
  if (readings.length < 2) return [];
  const first = readings[0]!;
  const debits = windows.filter((d) => d.to >= first.from); // the rest were made before it
  // Uncertain for every reading: the debits that may have been made before the first one or after it.
  const aroundFirst = debits.filter((d) => d.from <= first.to);
  const after = debits.filter((d) => d.from > first.to).sort((a, b) => a.to - b.to);
  const before = prefixSums(after);
  const widest = after.reduce((w, d) => Math.max(w, d.to - d.from), 0);
  const judged: Judged[] = readings.map((r) => {
    // Certainly between the first reading and r: made after the first was answered, answered before r left.
    const certain = before(upperIndex(after, r.from));
    const uncertain = [...aroundFirst];
    for (let i = lowerIndex(after, r.from); i < after.length && after[i]!.to <= r.to + widest; i++) {
      if (after[i]!.from <= r.to) uncertain.push(after[i]!);
    }
    const rest = cents(first.balanceUsd) - cents(r.balanceUsd) - certain;
    return { rest, uncertain };
  });
  const has = (j: Judged) => (j.has ??= totals(j.uncertain));
  const explains = (k: number, u: number) => has(judged[k]!)(judged[k]!.rest - u);
  const out: Unexplained[] = [];
  let u = 0;
  for (let k = 1; k < readings.length; k++) {
    if (explains(k, u)) continue;
    const j = judged[k]!;
    let best: { u: number; reach: number } | undefined;
    for (const t of allTotals(j.uncertain, has(j))) {
      const cand = j.rest - t;
      let reach = k;
      while (reach + 1 < readings.length && explains(reach + 1, cand)) reach++;
      const better =
        !best ||
        reach > best.reach ||
        (reach === best.reach && Math.abs(cand - u) < Math.abs(best.u - u)) ||
        (reach === best.reach && Math.abs(cand - u) === Math.abs(best.u - u) && cand < best.u);
      if (better) best = { u: cand, reach };
    }
    const next = best?.u ?? j.rest;
    out.push(stretch(readings[k - 1]!, readings[k]!, next - u));
    u = next;
  }
  return out;
}

function stretch(a: Reading, b: Reading, gap: number): Unexplained {
  const debited = cents(a.balanceUsd) - cents(b.balanceUsd) - gap;
  return {
    from: a.at,
    to: b.at,
    balanceBefore: a.balanceUsd,
    balanceAfter: b.balanceUsd,
    debitedUsd: debited / 100,
    unexplainedUsd: gap / 100,
  };
}

/** sum(i) = cents of the debits before index i. */
function prefixSums(ds: readonly Debit[]): (i: number) => number {
  const sums = [0];
  for (const d of ds) sums.push(sums[sums.length - 1]! + d.cents);
  return (i) => sums[i]!;
}

/** The first index whose debit was answered at or after t (ds sorted by `to`). */
function lowerIndex(ds: readonly Debit[], t: number): number {
  let lo = 0;
  let hi = ds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ds[mid]!.to < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The number of debits answered before t. */
const upperIndex = lowerIndex;
