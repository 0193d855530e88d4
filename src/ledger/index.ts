// The ledger as the purchase paths use it: a journal, who writes to it (profile, source), and the
// profile's policy. The CLI builds one per command (ctx.ledger()), the SDK from its options, and
// `webhook listen --ledger` for the events it verifies. Entering never fails a purchase: a debit
// that cannot be written is said (warn) and the purchase stands.
import { checkPolicy, takeHold, type Hold, type HoldBatch, type SpendPolicy } from './budget.js';
import { LedgerUnavailableError, PolicyError } from '../errors.js';
import { recordBalance } from './report.js';
import { customerOf } from './customer.js';
import { countryOfPool, createEntryId, extendEntryId, Journal, type LedgerEntry, type LedgerSource } from './journal.js';
import { fileHolds } from './file-holds.js';
import type { HoldStore, JournalStore, SettingsSource } from './store.js';

export type { Hold, HoldBatch, HoldInfo, HoldState, SpendPolicy } from './budget.js';
export { checkPolicy, dropHold, hasPolicy, listHolds, policyOf, takeHold } from './budget.js';
export type { LedgerEntry, LedgerSource } from './journal.js';
export { customerOf, parseCustomer, withCustomer } from './customer.js';
export { countryOfPool, Journal } from './journal.js';
export { fileHolds } from './file-holds.js';
export type { HoldStore, JournalStore, SettingsSource } from './store.js';

export interface Ledger {
  /** Where debits are entered and read: the local journal, or the team's shared store. */
  journal: JournalStore;
  /** Where budget holds are taken: beside the local journal, or in the shared store. */
  holds: HoldStore;
  /** This machine's own journal file: balance readings (`spend --reconcile`) and what `ledger push` copies. */
  local: Journal;
  /**
   * True when the journal and holds are a store other machines share (`ledger-url`): every charge
   * then takes a hold, so a store that cannot be reached refuses it before anything is charged.
   */
  shared?: boolean | undefined;
  source: LedgerSource;
  profile?: string | undefined;
  /**
   * The policy as it was when the ledger was opened. Front doors that live long (the MCP server)
   * or must follow a `config set` made meanwhile pass `readPolicy` too: every check reads it then.
   */
  policy?: SpendPolicy | undefined;
  /**
   * Reads the profile's policy as it is now (the config file read again, or the team's settings in
   * the shared store); wins over `policy`.
   */
  readPolicy?: (() => SpendPolicy | undefined | Promise<SpendPolicy | undefined>) | undefined;
  /**
   * The money settings the policy is read from (the profile's in config.json, or the team's in the
   * shared store), by name: other money settings (customer prices) are read here at the moment of
   * charging, as the policy is.
   */
  settings?: SettingsSource | undefined;
  /** Told when an entry cannot be written (the purchase still stands). */
  warn?: ((message: string) => void) | undefined;
  now?: (() => Date) | undefined;
  /** The budget hold this ledger's run holds (underBudget sets it on the copy it hands on). */
  hold?: string | undefined;
  /**
   * Set by underBudget on the copy it hands on: aborted when the shared store is lost mid-run (a
   * debit could not be entered in it, or the hold's connection went), so no further charge starts.
   * Its reason is the error to end the run with.
   */
  stop?: AbortSignal | undefined;
  halt?: ((reason: Error) => void) | undefined;
}

/** A ledger on the files of one machine: the journal `<dir>/<account>.jsonl` and the holds beside it. */
export function fileLedger(dir: string, account: string): Pick<Ledger, 'journal' | 'holds' | 'local'> {
  const journal = new Journal(dir, account);
  return { journal, holds: fileHolds(journal), local: journal };
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
  return { at: at ?? (ledger.now?.() ?? new Date()).toISOString(), profile: ledger.profile, source: ledger.source, hold: ledger.hold };
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
    if (ledger.shared && ledger.halt) {
      // The shared store kept the debits on this machine instead (see pg/journal.ts): the run stops
      // charging, and ends with this error once what it did is told.
      ledger.halt(err as Error);
      return;
    }
    if (ledger.shared) {
      ledger.warn?.((err as Error).message);
      return;
    }
    ledger.warn?.(
      `cannot write the ledger ${ledger.journal.where}: ${(err as Error).message}; the purchase stands, but spend will not show it`,
    );
  }
}

/** The profile's rules at this moment: read again where the front door can, else as opened. */
export async function policyNow(ledger: Ledger | undefined): Promise<SpendPolicy | undefined> {
  if (!ledger) return undefined;
  return ledger.readPolicy ? await ledger.readPolicy() : ledger.policy;
}

/** What a run is about to charge, for underBudget. */
export interface Spend {
  /** USD the run will charge for these refs (for purchases: the whole quote, whatever the refs). */
  cost: (refs: readonly string[]) => number;
  period?: string | undefined;
  poolIds?: readonly (string | undefined)[];
  /** Units about to be extended: a run that overlaps another never extends the same one twice. */
  refs?: readonly string[];
  /** A purchase batch's idempotency key and unit price: resuming the key takes over a killed run's hold. */
  batch?: HoldBatch | undefined;
}

/**
 * Runs `fn` within the ledger's policy: the per-run, period and country rules checked first, then,
 * when there is a daily budget or units to claim, a hold taken across processes (see budget.ts) and
 * given back when `fn` ends, however it ends. `fn` gets the refs it may extend (the others are held
 * by a run still at work) and the ledger to enter its debits in. Throws PolicyError (exit 12)
 * before anything is charged.
 */
export async function underBudget<T>(
  ledger: Ledger | undefined,
  spend: Spend,
  fn: (refs: readonly string[], ledger: Ledger | undefined, hold: Hold | undefined) => Promise<T>,
): Promise<T> {
  const all = spend.refs ?? [];
  const { hold } = await beforeCharging(ledger, async () => {
    // Read once here, at the moment of charging: a `config set` made while a server runs counts.
    const policy = await policyNow(ledger);
    const countries = [...new Set((spend.poolIds ?? []).map(countryOfPool).filter((c): c is string => c !== undefined))];
    checkPolicy(policy, { amountUsd: spend.cost(all), period: spend.period, countries });
    if (!ledger || (policy?.maxSpendPerDay === undefined && all.length === 0 && !ledger.shared)) return { policy, hold: undefined };
    const hold = await takeHold(ledger.holds, {
      refs: all,
      cost: spend.cost,
      policy,
      now: ledger.now?.() ?? new Date(),
      batch: spend.batch,
      source: ledger.source,
      warn: ledger.warn,
    });
    return { policy, hold };
  });
  if (!hold || !ledger) return fn(all, ledger, undefined);
  const halted = new AbortController();
  const stop = hold.lost ? AbortSignal.any([halted.signal, hold.lost]) : halted.signal;
  try {
    // Its debits name the hold: until it is given back, budget checks count the hold less them.
    return await fn(hold.refs, { ...ledger, hold: hold.id, stop, halt: (reason) => halted.abort(reason) }, hold);
  } finally {
    await hold.release();
  }
}

/** A shared store that fails before the run charges anything says so: the run is refused whole (fail closed). */
async function beforeCharging<T>(ledger: Ledger | undefined, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (err) {
    if (ledger?.shared && err instanceof LedgerUnavailableError && !err.message.endsWith('nothing was charged')) {
      throw new LedgerUnavailableError(`${err.message}; nothing was charged`, { code: err.code, hint: err.hint, cause: err });
    }
    throw err;
  }
}

/** A balance proxyctl read (before and after charging), kept beside the journal for `spend --reconcile`. */
export async function noteBalance(ledger: Ledger | undefined, balanceUsd: number | undefined): Promise<void> {
  if (!ledger || balanceUsd === undefined) return;
  await recordBalance(ledger.local, { at: (ledger.now?.() ?? new Date()).toISOString(), balanceUsd }).catch(() => undefined);
}

/**
 * The debit a verified webhook delivery reports (`webhook listen --ledger`): `unit.created` and
 * `unit.extended` carry `pricePaid`. Test deliveries and other events report none. Its id is the
 * same as the one the CLI enters for its own purchase, so a debit seen both ways counts once.
 */
export function entryFromEvent(ledger: Ledger, payload: unknown): LedgerEntry | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const p = payload as { event?: unknown; occurredAt?: unknown; data?: Record<string, unknown>; test?: unknown };
  if (p.test === true || typeof p.data !== 'object' || p.data === null) return undefined;
  const d = p.data;
  const ref = typeof d.proxyRef === 'string' ? d.proxyRef : undefined;
  const price = typeof d.pricePaid === 'number' && Number.isFinite(d.pricePaid) ? d.pricePaid : undefined;
  if (!ref || price === undefined) return undefined;
  const at =
    typeof p.occurredAt === 'string' && Number.isFinite(Date.parse(p.occurredAt)) ? new Date(p.occurredAt).toISOString() : undefined;
  const period = typeof d.period === 'string' ? d.period : undefined;
  const poolId = typeof d.poolId === 'string' ? d.poolId : undefined;
  if (p.event === 'unit.created') return createEntry(ledger, { ref, poolId, period, priceUsd: price, at });
  if (p.event === 'unit.extended' && typeof d.expiresAt === 'string') {
    return extendEntry(ledger, { ref, expiresAt: d.expiresAt, period, priceUsd: price, at });
  }
  return undefined;
}

/**
 * What the daily budget lets a run charge now (USD): max-spend-per-day less the last 24 hours'
 * debits and what live holds may still spend, read under the account's lock as a real hold would
 * be. undefined when the profile sets no daily budget. A run that fits itself under this (--fit)
 * still takes its own hold, so a run that started meanwhile is never overrun.
 */
export async function dailyBudgetLeft(ledger: Ledger | undefined): Promise<number | undefined> {
  const max = (await policyNow(ledger))?.maxSpendPerDay;
  if (!ledger || max === undefined) return undefined;
  try {
    // Asking for more than the whole budget is always refused, and the refusal says what is left.
    const hold = await takeHold(ledger.holds, {
      cost: () => max + 1,
      policy: { maxSpendPerDay: max },
      now: ledger.now?.() ?? new Date(),
      warn: ledger.warn,
    });
    await hold.release();
    return max;
  } catch (err) {
    if (err instanceof PolicyError && err.leftUsd !== undefined) return err.leftUsd;
    throw err;
  }
}
