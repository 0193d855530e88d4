// The ledger as the purchase paths use it: a journal, who writes to it (profile, source), and the
// profile's policy. The CLI builds one per command (ctx.ledger()), the SDK from its options, and
// `webhook listen --ledger` for the events it verifies. Entering never fails a purchase: a debit
// that cannot be written is said (warn) and the purchase stands.
import { checkPolicy, type SpendPolicy } from './budget.js';
import { countryOfPool, createEntryId, customerOf, extendEntryId, type Journal, type LedgerEntry, type LedgerSource } from './journal.js';

export type { Hold, SpendPolicy } from './budget.js';
export { checkPolicy, hasPolicy, takeHold } from './budget.js';
export type { LedgerEntry, LedgerSource } from './journal.js';
export { countryOfPool, customerOf, isCustomerName, Journal, withCustomer } from './journal.js';

export interface Ledger {
  journal: Journal;
  source: LedgerSource;
  profile?: string | undefined;
  policy?: SpendPolicy | undefined;
  /** Told when an entry cannot be written (the purchase still stands). */
  warn?: ((message: string) => void) | undefined;
  now?: (() => Date) | undefined;
}

export interface CreateDebit {
  ref: string;
  poolId?: string | undefined;
  period?: string | undefined;
  priceUsd: number;
  idempotencyKey?: string | undefined;
  description?: string | undefined | null;
  /** When the unit was created, when the answer says. */
  at?: string | undefined;
}

export interface ExtendDebit {
  ref: string;
  expiresAt: string;
  poolId?: string | undefined;
  period?: string | undefined;
  priceUsd: number;
  description?: string | undefined | null;
  at?: string | undefined;
}

function base(ledger: Ledger, at: string | undefined) {
  return { at: at ?? (ledger.now?.() ?? new Date()).toISOString(), profile: ledger.profile, source: ledger.source };
}

function describe(description: string | undefined | null) {
  const text = description ?? undefined;
  return { description: text || undefined, customer: customerOf(text) };
}

export function createEntry(ledger: Ledger, d: CreateDebit): LedgerEntry {
  return {
    id: createEntryId(d.ref),
    ...base(ledger, d.at),
    operation: 'create',
    ref: d.ref,
    poolId: d.poolId,
    country: countryOfPool(d.poolId),
    period: d.period,
    priceUsd: d.priceUsd,
    idempotencyKey: d.idempotencyKey,
    ...describe(d.description),
  };
}

export function extendEntry(ledger: Ledger, d: ExtendDebit): LedgerEntry {
  return {
    id: extendEntryId(d.ref, d.expiresAt),
    ...base(ledger, d.at),
    operation: 'extend',
    ref: d.ref,
    poolId: d.poolId,
    country: countryOfPool(d.poolId),
    period: d.period,
    priceUsd: d.priceUsd,
    ...describe(d.description),
  };
}

/** Writes entries; a failure is warned once and swallowed (the debit happened either way). */
export async function enter(ledger: Ledger | undefined, entries: LedgerEntry[]): Promise<void> {
  if (!ledger || entries.length === 0) return;
  try {
    await ledger.journal.enter(entries);
  } catch (err) {
    ledger.warn?.(
      `cannot write the ledger ${ledger.journal.path}: ${(err as Error).message}; the purchase stands, but spend will not show it`,
    );
  }
}

/** The policy checks that need no shared state, for a quote (throws PolicyError, exit 12). */
export function checkQuote(
  ledger: Ledger | undefined,
  q: { amountUsd: number; period?: string; poolIds?: readonly (string | undefined)[] },
): void {
  const countries = [...new Set((q.poolIds ?? []).map(countryOfPool).filter((c): c is string => c !== undefined))];
  checkPolicy(ledger?.policy, { amountUsd: q.amountUsd, period: q.period, countries });
}
