// The package's import entry (`import { ResellerClient, createUnitsSafely } from 'proxyctl'`): the
// CLI's own API client (pacing, retries, typed errors) and its never-twice purchase and extend
// paths, for use from code. Like every module but src/cli.ts it never touches `process`: the
// caller passes the key, the base URL, the environment (for HTTP(S)_PROXY) and the abort signal.
// Nothing in src imports this file (the `sdk-is-an-entry` layer rule).
import { getUnit, readBalance } from './api/endpoints.js';
import { ApiClient, checkBaseUrl, type AsyncCache } from './api/index.js';
import type { Env } from './io.js';
import { purchase } from './units/purchase.js';
import { extend } from './units/extension.js';
import { extendSafely } from './units/extend-safely.js';
import type { CreateBody, Extended, Unit } from './units/types.js';
import { userAgent } from './version.js';
import { fileLedger, type Ledger, policyOf, type SpendPolicy } from './ledger/index.js';
import { parseLedgerUrl } from './ledger/shared-url.js';
import type { SharedStore } from './ledger/store.js';

export {
  ApiError,
  AuthMissingError,
  BadResponseError,
  CliError,
  ConflictError,
  ExitCode,
  InterruptedError,
  LedgerUnavailableError,
  NetworkError,
  NotAppliedError,
  NotFoundError,
  PolicyError,
  UsageError,
} from './errors.js';
import {
  type ApiError,
  AuthMissingError,
  type BadResponseError,
  CliError,
  ConflictError,
  type InterruptedError,
  type LedgerUnavailableError,
  type NetworkError,
  type NotAppliedError,
  type NotFoundError,
  type PolicyError,
  UsageError,
} from './errors.js';
export type { ApiResponse, AsyncCache, Page, Pagination, Query, RequestOptions, RetryPolicy } from './api/index.js';
export type { CreateBody, Extended, ExtendResult, Unit } from './units/types.js';
export type { LedgerEntry, SpendPolicy } from './ledger/index.js';
export { ApiClient };

export interface ResellerClientOptions {
  /** The API's origin, e.g. https://api.example.com (no /api/reseller/v1); plain http only to loopback unless `insecure`. */
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout in milliseconds (default 30,000, as the CLI's --timeout). */
  timeoutMs?: number;
  /** Aborting it stops waits and reads; a purchase on the wire is let finish. */
  signal?: AbortSignal;
  /** Variables the client reads (HTTP_PROXY, HTTPS_PROXY, NO_PROXY); pass `process.env` to honour a proxy. Default: none. */
  env?: Env;
  /**
   * Where the purchase path remembers which items of a batch were bought and how far each walked its
   * key chain, so a retry with the same idempotency key starts where the last run stopped. Default: in
   * memory, for the life of the client (the server's idempotency keys still make a retry free).
   * Discovered operations are kept in it too (their keys never collide).
   */
  cache?: AsyncCache;
  /** Send the key over plain http to a host that is not loopback. */
  insecure?: boolean;
  /** Called with one line per request, retry and wait (the CLI's --debug); the key is never in it. */
  trace?: (line: string) => void;
  /**
   * Enter every debit in the ledger the CLI keeps (`proxyctl spend` reads it), with source `sdk`,
   * and hold purchases and extensions to the budget and policy (a refusal is a PolicyError, exit
   * code 12, thrown before anything is charged). Exactly one of:
   *
   * - `dir`: this machine's ledger directory (the CLI's is `<data dir>/ledger`,
   *   PROXYCTL_CONFIG_DIR/data/ledger when set), held to `policy` (the CLI's `config set
   *   max-spend-per-day …` of a profile; the SDK reads no config file).
   * - `url`: the team's shared ledger, the PostgreSQL database the CLI's `config set ledger-url`
   *   names (`?sslmode=require` or `verify-full` for TLS). Debits, budget holds and purchase records
   *   go to the database, and the team's budget and policy are read from it at every charge (`policy`
   *   is not taken: the team's is set with `proxyctl config set` on a machine using the ledger). A
   *   database that cannot be reached refuses the charge before anything is charged
   *   (LedgerUnavailableError, exit code 9). The password is never in an error or the trace.
   *   `localDir` is where debits the database could not take mid-run are kept (pass the CLI's
   *   `<data dir>/ledger`, so `proxyctl ledger push` copies them). node-postgres loads only then;
   *   `client.close()` ends its connections (idle ones never keep a script alive).
   *
   * `profile` names the profile the debits are entered under.
   */
  ledger?: LedgerOption;
}

/** The `ledger` option: this machine's files (`dir`) or the team's database (`url`). */
export type LedgerOption =
  | { dir: string; url?: undefined; policy?: SpendPolicy; profile?: string }
  | { url: string; localDir: string; dir?: undefined; policy?: undefined; profile?: string };

/**
 * What a failed item of a batch carries: one of the SDK's error classes, never an unknown value, so
 * `item.error.code` and `item.error.message` need no cast and `instanceof` narrows to the fields each
 * class adds (ApiError's `status` and `requestId`, NetworkError's `notSent`, …). Anything else thrown
 * on the way (a bug) arrives as a plain CliError with code `unexpected` and the thrown value as `cause`.
 */
export type SdkError =
  | ApiError
  | AuthMissingError
  | BadResponseError
  | ConflictError
  | InterruptedError
  | LedgerUnavailableError
  | NetworkError
  | NotAppliedError
  | NotFoundError
  | PolicyError
  | UsageError
  | CliError;

function sdkError(err: unknown): SdkError {
  if (err instanceof CliError) return err;
  return new CliError(err instanceof Error ? err.message : String(err), { code: 'unexpected', cause: err });
}

/** `ResellerClient.fromEnv`'s overrides: any option, each winning over what the environment says. */
export type FromEnvOptions = Partial<ResellerClientOptions>;

/** The Reseller API client the CLI uses, built from plain options. `get`/`request` check each answer's shape. */
export class ResellerClient extends ApiClient {
  /**
   * Where this client's debits are entered with `ledger: { dir }`; undefined without it, and with
   * `ledger: { url }` (the team's store is opened at the first charge: see openLedger).
   */
  readonly ledger: Ledger | undefined;

  constructor(opts: ResellerClientOptions) {
    const store = opts.cache ?? memoryCache();
    const l = checkLedgerOption(opts.ledger);
    // node-postgres (and the store with it) loads at the first charge, not with the client.
    const url = l?.url;
    let opening: Promise<SharedStore> | undefined;
    const shared = url === undefined ? undefined : () => (opening ??= import('./ledger/pg/index.js').then((pg) => pg.openSharedStore(url)));
    super({
      baseUrl: checkBaseUrl(opts.baseUrl, opts.insecure ?? false)
        .toString()
        .replace(/\/+$/, ''),
      apiKey: opts.apiKey,
      timeoutMs: opts.timeoutMs ?? 30_000,
      env: opts.env ?? {},
      signal: opts.signal ?? new AbortController().signal,
      userAgent: userAgent(),
      trace: opts.trace,
      cache: store,
      // With the team's ledger, purchase records are kept in its database too, as the CLI keeps
      // them: a batch started on one machine resumes on another with its key.
      records: shared ? sharedRecords(shared, store) : store,
    });
    if (l === undefined) {
      this.ledger = undefined;
    } else if (l.url === undefined) {
      this.ledger = { ...fileLedger(l.dir, this.accountId()), source: 'sdk', profile: l.profile, policy: l.policy };
    } else if (shared) {
      const local = fileLedger(l.localDir, this.accountId()).local;
      const account = this.accountId();
      this.#shared = shared;
      this.#opened = async () => {
        const team = (await shared()).account(account, local);
        return {
          source: 'sdk',
          profile: l.profile,
          journal: team.journal,
          holds: team.holds,
          local,
          shared: true,
          settings: team.settings,
          // The team's budget and policy, read from the database at every charge.
          readPolicy: async () => policyOf(await team.settings.read()),
        };
      };
      // The team's ledger is opened by openLedger(), at the first charge.
      this.ledger = undefined;
    }
  }

  #shared: (() => Promise<SharedStore>) | undefined;
  #opened: (() => Promise<Ledger>) | undefined;
  #ledger: Promise<Ledger> | undefined;

  /** The ledger the money path enters debits in: `ledger`, or the team's store, opened on first use. */
  openLedger(): Promise<Ledger | undefined> {
    if (!this.#opened) return Promise.resolve(this.ledger);
    if (!this.#ledger) this.#ledger = this.#opened();
    return this.#ledger;
  }

  /**
   * Ends the connections to the team's shared ledger (`ledger: { url }`), once the client's work is
   * done; nothing to do without one. A charge after it opens them again.
   */
  async close(): Promise<void> {
    if (this.#shared) await (await this.#shared()).close();
  }

  /**
   * A client configured the way the CLI is without a profile: the key from PROXYCTL_API_KEY, the
   * base URL from PROXYCTL_BASE_URL, a trace on stderr when PROXYCTL_DEBUG is set (not 0), and
   * HTTP(S)_PROXY/NO_PROXY honoured. `overrides` win over the environment, as the CLI's flags do;
   * `overrides.env` replaces the process's environment as the one read. An empty variable counts as
   * unset. No key is an AuthMissingError (exit code 3) and no base URL a UsageError (2), thrown
   * before any request. Profiles stay the CLI's: the SDK reads no config file.
   */
  static fromEnv(overrides: FromEnvOptions = {}): ResellerClient {
    // biome-ignore lint/style/noRestrictedGlobals: reading the process's environment is what a caller of fromEnv asks for; nothing else in the SDK touches process
    const env: Env = overrides.env ?? process.env;
    const set = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
    const apiKey = overrides.apiKey ?? set('PROXYCTL_API_KEY');
    if (apiKey === undefined) throw new AuthMissingError('no API key: PROXYCTL_API_KEY is not set', 'set PROXYCTL_API_KEY, or pass apiKey');
    const baseUrl = overrides.baseUrl ?? set('PROXYCTL_BASE_URL');
    if (baseUrl === undefined)
      throw new UsageError('no base URL: PROXYCTL_BASE_URL is not set', { hint: 'set PROXYCTL_BASE_URL, or pass baseUrl' });
    const debug = set('PROXYCTL_DEBUG');
    const trace = debug !== undefined && debug !== '0' ? (line: string) => console.error(`[debug] ${line}`) : undefined;
    return new ResellerClient({ ...(trace ? { trace } : {}), ...overrides, env, apiKey, baseUrl });
  }

  /** GET /account: the balance in USD. */
  async balance(): Promise<number> {
    return readBalance(this);
  }

  /** GET /units/{ref}. */
  async unit(ref: string): Promise<Unit> {
    return getUnit(this, ref);
  }
}

/** `local` under the team's records, the store opened on first use (pg/index.ts: pgRecords). */
function sharedRecords(shared: () => Promise<SharedStore>, local: AsyncCache): AsyncCache {
  let records: Promise<AsyncCache> | undefined;
  const open = () => (records ??= shared().then((s) => s.records(local)));
  return {
    get: async <T>(key: string) => (await open()).get<T>(key),
    set: async (key, value) => (await open()).set(key, value),
  };
}

function memoryCache(): AsyncCache {
  const map = new Map<string, unknown>();
  return {
    get: async <T>(key: string) => map.get(key) as T | undefined,
    set: async (key, value) => {
      map.set(key, structuredClone(value));
    },
  };
}

export interface CreateUnitsOptions extends CreateBody {
  /** How many units to buy (default 1). */
  count?: number;
  /**
   * The batch's base key (a UUID). Give it to make a retry safe: the same key and count buy each
   * item at most once, whatever failed in between. Default: a new one, returned in the result.
   */
  idempotencyKey?: string;
  /** Purchases on the wire at once (default 4, as the CLI); the client's rate budget paces them. */
  concurrency?: number;
  /** Stops starting new purchases; each one started settles (bought or not) first. */
  signal?: AbortSignal;
  /**
   * The units' description (at most 500 characters; `customer=NAME` tags a customer, as the CLI's
   * --customer does). Written on each unit right after its purchase, as `units create --description`
   * writes it; a unit whose description could not be written is in `undescribed`, and a retry with
   * the same key writes it.
   */
  description?: string;
}

export type CreateItem =
  /** `replayed`: an earlier run with this key bought the unit (the server replayed it); this call did not pay for it. */
  | { index: number; ok: true; unit: Unit; idempotencyKey: string; replayed: boolean }
  | { index: number; ok: false; error: SdkError; idempotencyKey: string };

export interface CreateUnitsResult {
  /** Retry with this key to finish the batch without paying twice. */
  idempotencyKey: string;
  /** The units bought (or replayed by a retry), in batch order. */
  units: Unit[];
  /** Units this call paid for: bought now. */
  bought: number;
  /** Units an earlier run with this key bought, replayed now and not paid for again. */
  replayed: number;
  /** Every item started, in batch order; `ok: false` items carry the typed error (ApiError, NetworkError, …). */
  items: CreateItem[];
  /** Items never started: `signal` aborted, or the pool failing upstream stopped the batch. */
  notStarted: number;
  /** Units bought whose `description` could not be written, with why (a retry with the same key writes it). */
  undescribed: { proxyRef: string; reason: string }[];
}

/**
 * `proxyctl units create --count N --idempotency-key K` for code: each unit bought with its own key
 * derived from K, retried only in ways that cannot buy twice. Never throws for a failed item; look at
 * `items`.
 */
export async function createUnitsSafely(client: ApiClient, options: CreateUnitsOptions): Promise<CreateUnitsResult> {
  const { count = 1, idempotencyKey, concurrency, signal: given, description, ...body } = options;
  if (description !== undefined && (typeof description !== 'string' || [...description].length > 500))
    throw new UsageError('description must be a string of at most 500 characters');
  // The CLI's money path: the same plan, policy, hold, ledger and never-twice batch.
  // No key given: purchase() makes one (and a new key has no earlier purchases to look for).
  const input = { body, count, baseKey: idempotencyKey, dryRun: false, description };
  const { baseKey, batch, bought } = await purchase(
    { api: client, ledger: await ledgerOf(client), signal: given ?? new AbortController().signal },
    input,
    {
      checkBalance: false,
      concurrency,
    },
  );
  const { report, keys, untagged } = batch;
  const items = report.outcomes.map(
    (o): CreateItem =>
      o.ok
        ? { index: o.index, ok: true, unit: o.value, idempotencyKey: keys[o.index]!, replayed: batch.replayed.has(o.index) }
        : { index: o.index, ok: false, error: sdkError(o.error), idempotencyKey: keys[o.index]! },
  );
  return {
    idempotencyKey: baseKey,
    units: items.flatMap((i) => (i.ok ? [i.unit] : [])),
    bought,
    replayed: items.filter((i) => i.ok && i.replayed).length,
    items,
    notStarted: report.notStarted,
    undescribed: [...untagged].map(([proxyRef, reason]) => ({ proxyRef, reason })),
  };
}

/**
 * `proxyctl units extend REF --period P` for code: no blind retry (extend has no idempotency key);
 * after an ambiguous failure the unit's expiry is read back to tell whether it was extended. Throws a
 * NetworkError (code `extend_unknown`) when that cannot be told, and a NotAppliedError when the server
 * answered without extending.
 */
export async function extendUnitSafely(client: ApiClient, options: { ref: string; period: string }): Promise<Extended> {
  const ledger = await ledgerOf(client);
  if (!ledger) return extendSafely(client, { ref: options.ref, period: options.period });
  // The CLI's money path on one unit: its pool for the policy's countries, the hold on its ref.
  const unit = await getUnit(client, options.ref);
  const pools = new Map(unit.poolId ? [[options.ref, unit.poolId]] : []);
  const { report, heldElsewhere } = await extend(
    { api: client, ledger, signal: new AbortController().signal },
    { refs: [options.ref], period: options.period, pools },
  );
  if (heldElsewhere.length > 0) {
    throw new ConflictError(`${options.ref} is being extended by another run at this moment; it was not extended again`, {
      code: 'extend_in_progress',
    });
  }
  const [outcome] = report.outcomes;
  if (!outcome)
    throw new ConflictError(`${options.ref} was extended elsewhere since it was read; it was not extended again`, {
      code: 'extended_elsewhere',
    });
  if (!outcome.ok) throw outcome.error;
  return outcome.value as Extended;
}

function ledgerOf(client: ApiClient): Promise<Ledger | undefined> {
  return client instanceof ResellerClient ? client.openLedger() : Promise.resolve(undefined);
}

/** The `ledger` option as given: exactly one of `dir` and `url`, and what goes with each; a UsageError otherwise. */
function checkLedgerOption(l: LedgerOption | undefined): LedgerOption | undefined {
  if (l === undefined) return undefined;
  if (typeof l !== 'object' || l === null) throw new UsageError('ledger must be an object: { dir } or { url, localDir }');
  const o = l as { dir?: unknown; url?: unknown; localDir?: unknown; policy?: unknown; profile?: unknown };
  if (o.profile !== undefined && typeof o.profile !== 'string') throw new UsageError('ledger.profile must be a string');
  if (o.dir !== undefined && o.url !== undefined)
    throw new UsageError("ledger takes one of dir (this machine's files) and url (the team's database), not both");
  if (o.url !== undefined) {
    if (typeof o.url !== 'string') throw new UsageError('ledger.url must be a string: postgres://user:password@host:5432/database');
    parseLedgerUrl(o.url, 'ledger.url');
    if (o.policy !== undefined)
      throw new UsageError("ledger.policy is not taken with ledger.url: the team's budget and policy are read from its database", {
        hint: 'set them with proxyctl config set max-spend-per-day … on a machine using the ledger-url',
      });
    if (typeof o.localDir !== 'string' || o.localDir === '')
      throw new UsageError('ledger.url needs ledger.localDir: where debits the database could not take mid-run are kept', {
        hint: "pass this machine's CLI ledger directory (<data dir>/ledger), so proxyctl ledger push copies them",
      });
    return l;
  }
  if (typeof o.dir !== 'string' || o.dir === '')
    throw new UsageError("ledger needs dir (this machine's ledger directory) or url (the team's database)");
  if (o.localDir !== undefined) throw new UsageError('ledger.localDir goes with ledger.url only');
  return l;
}
