// Where the ledger keeps what it must share with every run that spends for the account: the debits
// (a journal store), the budget holds (a holds store) and the money settings of the profile or team
// (a settings source). Each has two implementations: files in the data dir and config.json, the
// embedded default for one machine (journal.ts, file-holds.ts, context/ledger.ts), and a PostgreSQL
// database a team shares (`config set ledger-url postgres://…`, src/ledger/pg/). The rules (merging
// lines of one debit, what a hold counts, who a debit belongs to) stay in the domain, the same for both.
import type { AsyncCache } from '../api/client.js';
import type { Journal, LedgerEntry, TagEntry } from './journal.js';

/** The debits and tag lines of one account. */
export interface JournalStore {
  /** Where it lives, for messages: a file, or the database (its URL without the password). */
  readonly where: string;
  /** Enters debits; one already entered with the same id merges with it (counted once). */
  enter(entries: readonly LedgerEntry[]): Promise<void>;
  /** Enters changes of units' customer tags. */
  tag(tags: readonly TagEntry[]): Promise<void>;
  /** Every debit once, merged and attributed, in the order each was first entered. */
  read(): Promise<LedgerEntry[]>;
  /**
   * The same debits as read(), each the same, a page at a time, without holding them all: for
   * readers that print or sum as they go, whose memory must not grow with the ledger. `ordered`
   * (the default): in read()'s order; false: in any order, which may hold less (for sums).
   */
  pages(opts?: { ordered?: boolean }): AsyncIterable<readonly LedgerEntry[]>;
  /** The ids already entered. */
  ids(): Promise<Set<string>>;
}

/** One budget hold as it is kept (see budget.ts). */
export interface HoldRecord {
  id: string;
  amountUsd: number;
  refs: string[];
  at: string;
  /** A purchase batch's idempotency base key, and what one of its units costs (its quote). */
  key?: string | undefined;
  unitUsd?: number | undefined;
  /** The holds of killed runs with the same key this one took over (counted in its amountUsd). */
  took?: string[] | undefined;
  /** Where and through what the run holding it runs (for `spend holds`). */
  host?: string | undefined;
  source?: string | undefined;
  /**
   * Set when a run that took over a killed run's hold ended before entering all it holds: what is
   * left may be debits of the killed run that nobody has entered yet, so it keeps counting, as a
   * hold no run is alive for, until the key is resumed again, it is all entered, 24 hours pass or
   * it is dropped.
   */
  endedAt?: string | undefined;
}

/** What the debits say, for budgets: spent since a moment, and entered under each hold. */
export interface Spending {
  /** USD of the debits made after `since` (one figure per debit, however many lines name it). */
  spent: number;
  /** USD entered by each hold's run, by hold id. */
  enteredBy: Map<string, number>;
}

/** The holds as they stand, read on demand (inside `locked`, nobody else changes them meanwhile). */
export interface HoldsView {
  /** Every hold kept, and whether the run holding it is seen alive now. */
  records(): Promise<{ rec: HoldRecord; alive: boolean }[]>;
  /** The debits' figures, read in one go so both are of one moment. */
  spending(since: number): Promise<Spending>;
}

export interface HoldChange {
  put?: readonly HoldRecord[];
  remove?: readonly string[];
}

/** A mark that a hold's run is alive, kept while it runs; it ends with the process, however it ends. */
export interface Liveness {
  release(): Promise<void>;
  /** Aborted when the store can no longer show the hold alive (its connection was lost): stop charging. */
  lost?: AbortSignal | undefined;
}

export interface HoldStore {
  /** Where the holds live, for messages. */
  readonly where: string;
  /**
   * Runs `fn` alone: no other process that shares the store runs its own `locked` meanwhile. `fn`
   * reads the holds and debits through the view and writes its changes with `change`. `warn` is
   * told once when the lock is slow to come.
   */
  locked<T>(
    warn: ((message: string) => void) | undefined,
    fn: (view: HoldsView, change: (c: HoldChange) => Promise<void>) => Promise<T>,
  ): Promise<T>;
  /** The holds read without the lock (for `spend holds`). */
  view(): HoldsView;
  /** Marks hold `id` alive until released or the process ends; taken before the hold is recorded. */
  keepAlive(id: string): Promise<Liveness>;
  /** Forgets the marks of holds that are gone. */
  forget(ids: readonly string[]): Promise<void>;
}

/** A profile's (or, with a shared store, the team's) money settings: budgets, policy, and any other by name. */
export interface SettingsSource {
  /** Where the settings live, for messages: the config file, or the database. */
  readonly where: string;
  /** True for the team's settings in a shared store. */
  readonly shared: boolean;
  /** Every setting as it is now (read again on each call: a change made meanwhile counts). */
  read(): Promise<Record<string, unknown>>;
  /** Sets one (undefined removes it). */
  set(name: string, value: unknown): Promise<void>;
  /**
   * Changes one from its value as it is now, alone: no other process sharing the source reads it for
   * a change or writes it meanwhile, so two runs changing different entries of one map (two
   * customers' prices, on two machines) both keep theirs. `change` returning undefined removes it.
   */
  update<T>(name: string, change: (value: T | undefined) => T | undefined): Promise<void>;
}

/** A team's shared store (src/ledger/pg/, loaded only when a ledger URL is set). */
export interface SharedStore {
  /** The database, its password left out. */
  readonly where: string;
  /** The journal, holds and settings of one account; `local` keeps what the database cannot take. */
  account(account: string, local: Journal): { journal: JournalStore; holds: HoldStore; settings: SettingsSource };
  /** Purchase records kept in the database, and in `local` too (a resume on this machine never depends on the network). */
  records(local: AsyncCache): AsyncCache;
  /** Which store, its schema version and whether it can be reached (never throws). */
  status(account: string | undefined, local: Journal | undefined): Promise<StoreStatus>;
  /** Copies a machine's journal into the database, each debit and tag once. */
  push(account: string, local: Journal): Promise<PushResult>;
  close(): Promise<void>;
}

export interface StoreStatus {
  store: 'postgres';
  where: string;
  reachable: boolean;
  schemaVersion: number | undefined;
  /** The version this proxyctl migrates to. */
  knownVersion: number;
  /** Debits of the account in the database. */
  debits?: number | undefined;
  /** Debits in this machine's journal that the database does not hold yet (`ledger push` copies them). */
  notPushed?: number | undefined;
  error?: string | undefined;
}

export interface PushResult {
  where: string;
  from: string;
  /** Debits in the local journal, and how many the database did not hold before. */
  debits: number;
  added: number;
  tags: number;
  tagsAdded: number;
}
