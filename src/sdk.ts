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
import { fileLedger, type Ledger, type SpendPolicy } from './ledger/index.js';

export {
  ApiError,
  AuthMissingError,
  BadResponseError,
  CliError,
  ConflictError,
  ExitCode,
  InterruptedError,
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
   * and hold purchases and extensions to `policy` (the CLI's `config set max-spend-per-day …`; a
   * refusal is a PolicyError, exit code 12, thrown before anything is charged). `dir` is the
   * ledger directory: the CLI's is `<data dir>/ledger` (PROXYCTL_CONFIG_DIR/data/ledger when set).
   */
  ledger?: { dir: string; policy?: SpendPolicy; profile?: string };
}

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
  /** Where this client's debits are entered (the `ledger` option); undefined without it. */
  readonly ledger: Ledger | undefined;

  constructor(opts: ResellerClientOptions) {
    const store = opts.cache ?? memoryCache();
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
      records: store,
    });
    const l = opts.ledger;
    this.ledger = l ? { ...fileLedger(l.dir, this.accountId()), source: 'sdk', profile: l.profile, policy: l.policy } : undefined;
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
    { api: client, ledger: ledgerOf(client), signal: given ?? new AbortController().signal },
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
  const ledger = ledgerOf(client);
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

function ledgerOf(client: ApiClient): Ledger | undefined {
  return client instanceof ResellerClient ? client.ledger : undefined;
}
