// The HTTP client for the Reseller API: auth header, timeouts, typed errors, pacing, retries for
// reads, pagination. Requests that change state choose their retry policy explicitly.
import type { Env } from '../io.js';
import { ApiError, BadResponseError, InterruptedError, NetworkError } from '../errors.js';
import { seconds, send, type RawResponse } from '../net/transport.js';
import { RateBudget, type RateTicket, parseRateHeaders, type Sleep } from './rate-limiter.js';
import {
  apiErrorFrom,
  checkShape,
  hasErrorEnvelope,
  meaningfulWithoutEnvelope,
  notTheApiError,
  parseBody,
  parseRetryAfter,
  redirectError,
  type Answer,
} from './response.js';
import { pageOf } from './shapes.js';
import { markPlain } from '../net/plain.js';
import type { Shape } from './validate.js';
import { Activity } from '../activity.js';

export const API_PREFIX = '/api/reseller/v1';

/**
 * - `read`: 429 waits Retry-After (bounded); 5xx and network errors back off and retry.
 * - `not-sent`: only when the request provably never left (refused, DNS, connect timeout) or 429.
 * - `never`: one attempt; the caller owns recovery (e.g. idempotent creates).
 */
export type RetryPolicy = 'read' | 'not-sent' | 'never';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query | undefined;
  body?: unknown;
  /** A body sent exactly as given, as JSON unless `headers` name a content-type (`proxyctl api --input`). */
  rawBody?: string | undefined;
  /** Extra headers, names in lower case; they never replace the API key (`proxyctl api -H` refuses it). */
  headers?: Record<string, string> | undefined;
  retry?: RetryPolicy | undefined;
  /** Defaults to the command's abort signal for reads and to none for writes, so Ctrl-C lets writes finish. */
  signal?: AbortSignal | null | undefined;
  /** The separate uptime budget. */
  budget?: 'uptime' | undefined;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string>;
  requestId: string | undefined;
  /** The body was printable ASCII without a backslash (src/net/plain.ts): no string in `data` needs escaping. */
  plain: boolean;
}

export interface Pagination {
  page?: number;
  pageSize?: number;
  totalItems?: number;
  total?: number;
  totalPages?: number;
  hasNext?: boolean;
  hasPrev?: boolean;
  [k: string]: unknown;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination | undefined;
}

/** A persistent key/value store: discovered operations (`cache`), purchase records (`records`). */
export interface AsyncCache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  env: Env;
  signal: AbortSignal;
  userAgent: string;
  trace?: ((line: string) => void) | undefined;
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
  /** Longest Retry-After we are willing to sit through; beyond it, exit 7 and say how long. */
  maxRetryWaitMs?: number;
  /** Retries allowed in this process across all requests, so a dead server fails fast in bulk. */
  retryBudget?: number;
  cache?: AsyncCache | undefined;
  /** Purchase records: which key each batch item is on, what it bought, what a key was used for. */
  records?: AsyncCache | undefined;
  /** What this client waits for, for spinners and bars (the context passes the one it shows). */
  activity?: Activity | undefined;
  /**
   * Told of each request as it leaves and of each answer that passed its checks, with the times:
   * the ledger keeps when balances were read and charges made from them (src/context/sightings.ts).
   * A promise it returns is waited for, so what it writes is written before the caller goes on; a
   * failure of it never fails the request.
   */
  observe?: ((exchange: Exchange, client: ApiClient) => Promise<void> | undefined) | undefined;
}

/** A request seen by `observe`: as it leaves (no `answer`), and once answered. */
export interface Exchange {
  method: string;
  /** The path under /api/reseller/v1 (`/units`, `/account`), without the query. */
  path: string;
  /** The Idempotency-Key sent with it, if any. */
  idempotencyKey: string | undefined;
  /** When it left (ms since the epoch, this client's clock). */
  sentAt: number;
  answer?: { at: number; status: number; data: unknown; replayed: boolean } | undefined;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 20_000;
/** Attempts of a read; an attempt that hit --timeout is repeated only once (see README "Timeouts"). */
const MAX_ATTEMPTS = 3;
const MAX_TIMEOUT_ATTEMPTS = 2;
const MAX_429_RETRIES = 5;

/** `Idempotent-Replayed: true` (the sandbox, Stripe and others): the answer is an earlier request's, replayed by key. */
export function isReplay(headers: Record<string, string>): boolean {
  return headers['idempotent-replayed']?.trim().toLowerCase() === 'true';
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new InterruptedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class ApiClient {
  readonly baseUrl: string;
  readonly cache: AsyncCache | undefined;
  readonly records: AsyncCache | undefined;
  readonly activity: Activity;
  private readonly opts: ApiClientOptions;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private retriesLeft: number;
  private readonly budgets: { main: RateBudget; uptime: RateBudget };

  constructor(opts: ApiClientOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.cache = opts.cache;
    this.records = opts.records;
    this.activity = opts.activity ?? new Activity();
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? abortableSleep;
    this.random = opts.random ?? Math.random;
    this.retriesLeft = opts.retryBudget ?? 20;
    this.budgets = {
      main: new RateBudget(this.now, this.sleep, this.activity),
      uptime: new RateBudget(this.now, this.sleep, this.activity),
    };
  }
  /** The account this client speaks for, as a name for files (its ledger): the API's host and a digest of the key, never the key. */
  accountId(): string {
    const host = new URL(this.baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
    // node:crypto is loaded here, on first use, not with the client: a command that enters nothing
    // in the ledger (any read) would pay for loading it (bench/RESULTS.md).
    // biome-ignore lint/style/noRestrictedGlobals: process.getBuiltinModule loads a built-in module; it reads no process state
    const { createHash } = process.getBuiltinModule('node:crypto');
    return `${host}-${createHash('sha256').update(this.opts.apiKey).digest('hex').slice(0, 16)}`;
  }

  url(path: string, query?: Query): string {
    const full = path.startsWith(API_PREFIX) ? path : `${API_PREFIX}${path.startsWith('/') ? '' : '/'}${path}`;
    const u = new URL(this.baseUrl + full);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    }
    return u.toString();
  }

  /** GET and check the body against `shape` (src/api/shapes.ts): what the caller gets is what it needs. */
  async get<T>(path: string, shape: Shape<T>, query?: Query, opts: Omit<RequestOptions, 'query'> = {}): Promise<T> {
    return (await this.request<T>('GET', path, shape, { ...opts, query })).data;
  }

  async request<T>(method: string, path: string, shape: Shape<T>, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const policy: RetryPolicy = opts.retry ?? (method === 'GET' ? 'read' : 'never');
    const signal = opts.signal === undefined ? (method === 'GET' ? this.opts.signal : undefined) : (opts.signal ?? undefined);
    let failures = 0;
    let timeouts = 0;
    let limited = 0;
    const started = this.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.once<T>(method, path, shape, opts, signal, attempt);
        this.noteCharge(method, path, res);
        return res;
      } catch (err) {
        if (err instanceof InterruptedError) throw err;
        if (this.opts.signal.aborted && method === 'GET') throw new InterruptedError();
        if (err instanceof ApiError && err.status === 429) {
          if (policy === 'never' || limited >= MAX_429_RETRIES) throw err;
          const waitMs = (err.retryAfter ?? 1) * 1000;
          const max = this.opts.maxRetryWaitMs ?? 60_000;
          if (waitMs > max) {
            throw new ApiError(
              {
                status: 429,
                code: err.code,
                type: err.type,
                message: err.message,
                requestId: err.requestId,
                retryAfter: err.retryAfter,
                raw: err.raw,
              },
              `the server asked to wait ${err.retryAfter}s, longer than proxyctl waits (${Math.round(max / 1000)}s); try again later`,
            );
          }
          limited += 1;
          // The budget was exhausted until Retry-After; the next acquire() does the waiting.
          this.trace(`rate limited; waiting ${waitMs}ms (Retry-After)`);
          continue;
        }
        // A bad answer is the same on a second asking; a timed-out read is asked once more, not twice.
        const retryable =
          (policy === 'read' &&
            ((err instanceof ApiError && err.status >= 500) || (err instanceof NetworkError && !(err instanceof BadResponseError)))) ||
          (policy === 'not-sent' && err instanceof NetworkError && err.notSent);
        failures += 1;
        const timedOut = err instanceof NetworkError && err.code === 'timeout';
        if (timedOut) timeouts += 1;
        if (!retryable || failures >= MAX_ATTEMPTS || (timedOut && timeouts >= MAX_TIMEOUT_ATTEMPTS) || this.retriesLeft <= 0) {
          throw failures > 1 && timedOut ? this.gaveUp(err as NetworkError, failures, started) : err;
        }
        this.retriesLeft -= 1;
        // Full jitter: a random wait in [0, min(cap, base·2^n)).
        const waitMs = Math.floor(this.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (failures - 1)));
        this.trace(`retrying ${method} ${path} in ${waitMs}ms after ${(err as Error).message}`);
        const end = this.activity.begin({
          host: new URL(this.baseUrl).host,
          kind: 'retry',
          since: Date.now(),
          forMs: waitMs,
          attempt: attempt + 1,
        });
        try {
          await this.sleep(waitMs, this.opts.signal);
        } finally {
          end();
        }
      }
    }
  }

  /**
   * A 2xx answer to a purchase (POST /units) or an extension (POST /units/{ref}/extend) is money
   * spent (or, replayed by its key, spent earlier): noted in the activity, whichever path sent it.
   */
  private noteCharge(method: string, path: string, res: ApiResponse<unknown>): void {
    if (method.toUpperCase() !== 'POST' || res.status < 200 || res.status > 299) return;
    const full = new URL(this.url(path)).pathname.replace(/\/+$/, '');
    const base = new URL(this.baseUrl).pathname.replace(/\/+$/, '') + API_PREFIX;
    if (full.slice(0, base.length).toLowerCase() !== base.toLowerCase()) return;
    const rest = full.slice(base.length);
    const d = (typeof res.data === 'object' && res.data !== null ? res.data : {}) as Record<string, unknown>;
    if (/^\/units$/i.test(rest) && typeof d.proxyRef === 'string')
      this.activity.noteCharged({ ref: d.proxyRef, kind: isReplay(res.headers) ? 'replayed' : 'bought' });
    const extend = /^\/units\/([^/]+)\/extend$/i.exec(rest);
    if (extend && d.extended !== false) {
      let ref = extend[1]!;
      try {
        ref = decodeURIComponent(ref);
      } catch {}
      this.activity.noteCharged({ ref, kind: 'extended' });
    }
  }

  /** The last timeout of several, with the real time spent on all attempts. */
  private gaveUp(err: NetworkError, attempts: number, started: number): NetworkError {
    return new NetworkError(`${err.message}; gave up after ${attempts} attempts, ${seconds(this.now() - started)} in all`, {
      code: err.code,
      notSent: err.notSent,
      ...(err.hint ? { hint: err.hint } : {}),
      cause: err,
    });
  }

  /** Exactly one attempt (after pacing), with typed errors and the body checked against `shape`. */
  async once<T>(
    method: string,
    path: string,
    shape: Shape<T>,
    opts: RequestOptions = {},
    signal?: AbortSignal,
    attempt = 1,
  ): Promise<ApiResponse<T>> {
    const url = this.url(path, opts.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
      ...opts.headers,
      'x-api-key': this.opts.apiKey,
    };
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    } else if (opts.rawBody !== undefined) {
      body = opts.rawBody;
      headers['content-type'] ??= 'application/json';
    }
    const budgets = opts.budget === 'uptime' ? [this.budgets.main, this.budgets.uptime] : [this.budgets.main];
    const tickets = await this.acquireAll(budgets, signal ?? this.opts.signal);
    const started = this.now();
    const seen: Exchange | undefined = this.opts.observe
      ? { method: method.toUpperCase(), path: apiPath(path), idempotencyKey: headers['idempotency-key'], sentAt: started }
      : undefined;
    const leaving = seen && this.tell(seen);
    if (leaving) await leaving;
    this.trace(`→ ${method} ${url}`);
    let raw: RawResponse;
    const end = this.activity.begin({ host: new URL(url).host, kind: 'answer', since: Date.now(), forMs: this.opts.timeoutMs, attempt });
    try {
      raw = await send({ method, url, headers, body, signal }, { env: this.opts.env, timeoutMs: this.opts.timeoutMs });
    } catch (err) {
      for (const [i, b] of budgets.entries()) b.update(undefined, tickets[i]);
      this.trace(`✗ ${method} ${url} ${(err as Error).message} ${this.now() - started}ms`);
      throw err;
    } finally {
      end();
    }
    const rate = parseRateHeaders(raw.headers, this.now());
    // An uptime response carries the uptime window's headers: they seed the uptime budget only,
    // while the account-wide budget just counts the request.
    const own = budgets[budgets.length - 1]!;
    for (const [i, b] of budgets.entries()) b.update(b === own ? rate : undefined, tickets[i]);
    const requestId = raw.headers['x-request-id'];
    this.trace(`← ${raw.status} ${method} ${url} request-id=${requestId ?? '-'} ${this.now() - started}ms`);
    const res = this.interpret<T>(raw, url, shape, budgets);
    const answered =
      seen && this.tell({ ...seen, answer: { at: this.now(), status: res.status, data: res.data, replayed: isReplay(res.headers) } });
    if (answered) await answered;
    return res;
  }

  /** The observer's promise, if it has something to write (most requests it has not: no wait for those). */
  private tell(exchange: Exchange): Promise<void> | undefined {
    // What the observer keeps is a record beside the request; the request stands without it.
    try {
      return this.opts.observe?.(exchange, this)?.catch(() => undefined);
    } catch {
      return undefined;
    }
  }

  /**
   * A slot in every budget the request counts against. The narrowest (last) is waited for first,
   * so a request queued for the uptime budget does not hold an account-wide slot meanwhile; a
   * ticket already taken goes back to its budget if a later wait is aborted.
   */
  private async acquireAll(budgets: RateBudget[], signal: AbortSignal | undefined): Promise<RateTicket[]> {
    const tickets: RateTicket[] = new Array(budgets.length);
    for (let i = budgets.length - 1; i >= 0; i--) {
      try {
        tickets[i] = await budgets[i]!.acquire(signal);
      } catch (err) {
        for (let j = i + 1; j < budgets.length; j++) budgets[j]!.update(undefined, tickets[j]);
        throw err;
      }
    }
    return tickets;
  }

  /**
   * The one place an answer is judged: a 3xx is reported (never followed), an error becomes an
   * ApiError, anything that is not the API's JSON or not the shape the caller needs becomes a
   * BadResponseError (exit 9). What is returned fits `shape`.
   */
  private interpret<T>(raw: RawResponse, url: string, shape: Shape<T>, budgets: RateBudget[]): ApiResponse<T> {
    const requestId = raw.headers['x-request-id'];
    const answer: Answer = { status: raw.status, headers: raw.headers, requestId, url, baseUrl: this.baseUrl };
    if (raw.status >= 300 && raw.status < 400) throw redirectError(answer);
    const { parsed, ok } = parseBody(raw.status, raw.body, this.opts.apiKey);
    if (raw.status >= 400) {
      const retryAfter = parseRetryAfter(raw.headers['retry-after'], this.now());
      // Retry-After is the server's word on when to try again; it applies to the budget that refused.
      if (raw.status === 429) budgets[budgets.length - 1]!.exhaust(this.now() + (retryAfter ?? 1) * 1000);
      if (!meaningfulWithoutEnvelope(raw.status) && !(ok && hasErrorEnvelope(parsed))) throw notTheApiError(answer);
      throw apiErrorFrom(raw.status, parsed, requestId, retryAfter, isReplay(raw.headers));
    }
    if (!ok) throw notTheApiError(answer);
    return {
      status: raw.status,
      data: checkShape(answer, shape, parsed) as T,
      headers: this.redacted(raw.headers),
      requestId,
      plain: raw.plain,
    };
  }

  /**
   * Pages of a collection, in order, as the caller consumes them. With `readAhead` (for a caller
   * that reads every page: no --limit), once the pagination names a further page it is asked for
   * while the one before it is still on its way, so the server prepares page n+1 while this process
   * parses and prints page n (bench/RESULTS.md). `hasNext` still decides where the list ends: a
   * list that shrank meanwhile costs one GET whose answer is dropped.
   */
  async *pages<T>(
    path: string,
    item: Shape<T>,
    query: Query = {},
    opts: Omit<RequestOptions, 'query'> & { readAhead?: boolean } = {},
  ): AsyncGenerator<Page<T>> {
    const { readAhead = false, ...options } = opts;
    const shape = pageOf(item);
    const fetch = (page: number) => this.request('GET', path, shape, { ...options, query: { ...query, page } });
    let page = Number(query.page ?? 1);
    let current = fetch(page);
    /** The page after `current`, when asked for ahead. */
    let ahead: ReturnType<typeof fetch> | undefined;
    let lastPage = 0;
    try {
      for (;;) {
        const res = await current;
        const body = res.data;
        const items = body.data;
        // printList then checks the page once for characters a terminal obeys, not every string of every item.
        if (res.plain) markPlain(items);
        const p = body.pagination;
        if (typeof p?.totalPages === 'number') lastPage = p.totalPages;
        const more = (p?.hasNext ?? (typeof p?.totalPages === 'number' ? page < p.totalPages : false)) && items.length > 0;
        if (more && readAhead) {
          current = ahead ?? fetch(page + 1);
          ahead = page + 2 <= lastPage ? settled(fetch(page + 2)) : undefined;
        }
        yield { items, pagination: p };
        if (!more) return;
        // Otherwise the next page is asked for only once the caller wants it (--limit may be reached).
        if (!readAhead) current = fetch(page + 1);
        page += 1;
      }
    } finally {
      // A caller that stopped early leaves at most these in flight; their failures are nobody's.
      settled(current);
      if (ahead) settled(ahead);
    }
  }

  /** Every item of a collection, streamed page by page: its caller reads them all, so pages are read ahead. */
  async *all<T>(path: string, item: Shape<T>, query: Query = {}, opts: Omit<RequestOptions, 'query'> = {}): AsyncGenerator<T> {
    for await (const page of this.pages<T>(path, item, query, { ...opts, readAhead: true })) yield* page.items;
  }

  /** Response headers with the API key redacted, should a server echo it (`proxyctl api -i` prints them). */
  private redacted(headers: Record<string, string>): Record<string, string> {
    const key = this.opts.apiKey;
    if (!key || !Object.values(headers).some((v) => v.includes(key))) return headers;
    return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.split(key).join('[REDACTED]')]));
  }

  private trace(line: string): void {
    if (!this.opts.trace) return;
    // The key is never in a URL or message we build, but redact it anyway in case a server echoes it.
    const key = this.opts.apiKey;
    this.opts.trace(key ? line.split(key).join('[REDACTED]') : line);
  }
}

/** `/api/reseller/v1/units?x=1` or `units/` → `/units`: the operation's path, however the caller spelled it. */
function apiPath(path: string): string {
  const bare = (path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path).split(/[?#]/)[0]!;
  return `/${bare.replace(/^\/+|\/+$/g, '')}`;
}

/** The promise itself, marked as handled: a request read ahead may fail after its reader has gone. */
function settled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
