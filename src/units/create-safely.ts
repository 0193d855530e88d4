// One purchase that is never made twice: see idempotency.ts for the key scheme. This module owns
// the retry decisions for POST /units; the API client makes exactly one attempt per call here
// (plus its own waits on 429 and on requests that provably never left).
import type { ApiClient } from '../api/client.js';
import { abortableSleep } from '../api/client.js';
import { ApiError, BadResponseError, InterruptedError, NetworkError } from '../errors.js';
import { deriveIdempotencyKey } from './idempotency.js';
import { inFlight as purchasesInFlight } from '../in-flight.js';
import type { CreateBody, Unit } from './types.js';
import { runBulk, UpstreamBreaker, type BulkOptions, type BulkReport } from './bulk.js';
import * as shapes from '../api/shapes.js';

export interface CreateOptions {
  baseKey: string;
  index: number;
  /** Ctrl-C: no new attempt starts once it is aborted. */
  signal: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Base delay for backoff between retries (tests shorten it). */
  delayMs?: number;
}

export type CreateOutcome = { ok: true; unit: Unit; idempotencyKey: string } | { ok: false; error: unknown; idempotencyKey: string };

/** Fresh (not replayed) refunded failures we sit through per item before giving up. */
const MAX_REFUNDED = 3;
/** Ambiguous failures (reset, timeout, 5xx other than a refund) retried with the same key. */
const MAX_AMBIGUOUS = 4;
/** A 2xx (or redirect) we cannot read: asked once more with the same key, which replays it. */
const MAX_UNREADABLE = 1;
const MAX_IN_FLIGHT_WAITS = 10;
/** A chain longer than this means the server replays failures we cannot get past. */
const MAX_GENERATIONS = 20;

function isRefund(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 503;
}

function isAmbiguous(err: unknown): boolean {
  if (err instanceof NetworkError) return !err.notSent;
  return err instanceof ApiError && err.status >= 500 && err.status !== 503;
}

/** Keys are honoured for 24 hours; a generation remembered for longer than that says nothing. */
const GENERATION_MEMORY_MS = 24 * 3600 * 1000;

interface SavedGeneration {
  generation: number;
  at: number;
}

/**
 * The generation a previous run of the same base key reached for this item. Without it a re-run
 * could not get past the failures a replaying server stored in the first run: from the outside a
 * replayed chain looks exactly like the first run's fresh failures, so it would count them again
 * against MAX_REFUNDED and give up before ever trying a new key. Every generation below the saved
 * one was seen replaying a failure, so skipping it cannot skip a purchase.
 */
async function savedGeneration(api: ApiClient, cacheKey: string): Promise<number> {
  try {
    const saved = await api.cache?.get<SavedGeneration>(cacheKey);
    if (!saved || !Number.isInteger(saved.generation) || saved.generation <= 0 || saved.generation >= MAX_GENERATIONS) return 0;
    return Date.now() - saved.at < GENERATION_MEMORY_MS ? saved.generation : 0;
  } catch {
    return 0;
  }
}

interface SavedPurchase {
  proxyRef: string;
  at: number;
}

const purchaseKey = (api: ApiClient, baseKey: string, index: number) => `idempotency-bought:${api.baseUrl}:${baseKey}:${index}`;

/** Remembers that item `index` of the batch with this base key bought a unit (a re-run replays it). */
export async function rememberPurchase(api: ApiClient, baseKey: string, index: number, proxyRef: string): Promise<void> {
  await api.cache?.set(purchaseKey(api, baseKey, index), { proxyRef, at: Date.now() } satisfies SavedPurchase).catch(() => undefined);
}

/**
 * The indices among the first `count` that an earlier run with this base key bought within the key
 * window (a re-run replays them free).
 */
export async function itemsBoughtEarlier(api: ApiClient, baseKey: string, count: number): Promise<Set<number>> {
  const bought = new Set<number>();
  for (let i = 0; i < count; i++) {
    try {
      const saved = await api.cache?.get<SavedPurchase>(purchaseKey(api, baseKey, i));
      if (saved && typeof saved.proxyRef === 'string' && Date.now() - saved.at < GENERATION_MEMORY_MS) bought.add(i);
    } catch {
      // an unreadable cache entry says nothing
    }
  }
  return bought;
}

export async function createSafely(api: ApiClient, body: CreateBody, opts: CreateOptions): Promise<CreateOutcome> {
  const sleep = opts.sleep ?? abortableSleep;
  const delay = opts.delayMs ?? 500;
  const cacheKey = `idempotency-generation:${api.baseUrl}:${opts.baseKey}:${opts.index}`;
  let generation = await savedGeneration(api, cacheKey);
  let key = deriveIdempotencyKey(opts.baseKey, opts.index, generation);
  let seenRefunds = new Set<string>();
  let refunded = 0;
  let ambiguous = 0;
  let unreadable = 0;
  let inFlight = 0;
  /** True while an attempt may have bought something we have not yet seen the answer to. */
  let unsettled = false;

  const unknown = (cause: unknown) =>
    new NetworkError(
      `the purchase may or may not have gone through (${(cause as Error).message}); re-run with --idempotency-key ${opts.baseKey} to settle it without paying twice`,
      { code: 'outcome_unknown', cause },
    );

  for (;;) {
    if (opts.signal.aborted)
      return { ok: false, error: unsettled ? unknown(new InterruptedError()) : new InterruptedError(), idempotencyKey: key };
    try {
      // Registered while on the wire: a second Ctrl-C exits without waiting and names this key.
      const res = await purchasesInFlight.during(
        { what: `purchase #${opts.index + 1}`, idempotencyKey: key, resumeKey: opts.baseKey },
        () => api.request<Unit>('POST', '/units', shapes.unit, { body, headers: { 'idempotency-key': key }, retry: 'not-sent' }),
      );
      return { ok: true, unit: res.data, idempotencyKey: key };
    } catch (err) {
      if (err instanceof InterruptedError) {
        // Raised only while waiting for the rate budget, i.e. before this attempt was sent.
        return { ok: false, error: unsettled ? unknown(err) : err, idempotencyKey: key };
      }
      let waitMs: number;
      if (isRefund(err)) {
        unsettled = false;
        if (err.requestId !== undefined && seenRefunds.has(err.requestId)) {
          // A stored failure replayed: this key will never buy. Step to the next generation.
          generation += 1;
          if (generation >= MAX_GENERATIONS) return { ok: false, error: err, idempotencyKey: key };
          key = deriveIdempotencyKey(opts.baseKey, opts.index, generation);
          seenRefunds = new Set();
          await api.cache?.set(cacheKey, { generation, at: Date.now() } satisfies SavedGeneration).catch(() => undefined);
          continue;
        }
        refunded += 1;
        if (refunded > MAX_REFUNDED) return { ok: false, error: err, idempotencyKey: key };
        if (err.requestId !== undefined) seenRefunds.add(err.requestId);
        waitMs = delay * 2 ** (refunded - 1);
      } else if (err instanceof ApiError && err.status === 409 && err.code !== 'protocol_unchanged') {
        // The same key is still being processed (e.g. our own earlier attempt whose answer was lost).
        inFlight += 1;
        if (inFlight > MAX_IN_FLIGHT_WAITS) return { ok: false, error: unsettled ? unknown(err) : err, idempotencyKey: key };
        waitMs = Math.max(delay, 1000);
      } else if (err instanceof BadResponseError) {
        unsettled = true;
        unreadable += 1;
        if (unreadable > MAX_UNREADABLE) return { ok: false, error: unknown(err), idempotencyKey: key };
        waitMs = delay;
      } else if (isAmbiguous(err)) {
        unsettled = true;
        ambiguous += 1;
        if (ambiguous > MAX_AMBIGUOUS) return { ok: false, error: unknown(err), idempotencyKey: key };
        waitMs = delay * 2 ** (ambiguous - 1);
      } else {
        // Definitive for this attempt. After a lost answer, only a reply that went through the
        // idempotency check (400, 402, 404: a committed purchase would have been replayed instead)
        // proves the earlier attempt bought nothing; 401, 403 and 429 are refused before that
        // check, and a refused connection proves nothing either.
        const settles = err instanceof ApiError && ![401, 403, 429].includes(err.status);
        return { ok: false, error: unsettled && !settles ? unknown(err) : err, idempotencyKey: key };
      }
      try {
        await sleep(waitMs, opts.signal);
      } catch {
        return { ok: false, error: unsettled ? unknown(new InterruptedError()) : new InterruptedError(), idempotencyKey: key };
      }
    }
  }
}

export interface BatchOptions {
  count: number;
  baseKey: string;
  /** Ctrl-C: no new item starts once it is aborted; items in flight finish. */
  signal: AbortSignal;
  concurrency?: number;
  onEvent?: BulkOptions<number>['onEvent'];
  describe?: BulkOptions<number>['describe'];
  /** Told of each unit bought, before its purchase record is saved (the CLI's `inFlight.bought`). */
  onBought?: (proxyRef: string) => void;
}

export interface Batch {
  report: BulkReport<Unit>;
  /** Each started item's own idempotency key, by index. */
  keys: string[];
  breaker: UpstreamBreaker;
}

/**
 * `count` purchases of `body`, each through createSafely with its own key derived from `baseKey`,
 * stopped when the pool fails upstream (UpstreamBreaker), each bought unit recorded for resuming.
 * `units create` and the SDK's createUnitsSafely both buy through this one loop.
 */
export async function createBatch(api: ApiClient, body: CreateBody, o: BatchOptions): Promise<Batch> {
  const keys: string[] = [];
  const breaker = new UpstreamBreaker();
  // Items still retrying when the breaker trips stop at their next attempt, as on Ctrl-C.
  const signal = AbortSignal.any([o.signal, breaker.signal]);
  const report = await runBulk(
    { signal: o.signal },
    Array.from({ length: o.count }, (_, i) => i),
    {
      verb: 'created',
      label: (i) => `#${i + 1}`,
      stop: breaker.signal,
      ...(o.describe ? { describe: o.describe } : {}),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      ...(o.concurrency ? { concurrency: o.concurrency } : {}),
    },
    async (i) => {
      const out = await createSafely(api, body, { baseKey: o.baseKey, index: i, signal });
      keys[i] = out.idempotencyKey;
      breaker.record(out.ok, out.ok ? undefined : out.error);
      if (!out.ok) throw out.error;
      o.onBought?.(out.unit.proxyRef);
      await rememberPurchase(api, o.baseKey, i, out.unit.proxyRef);
      return out.unit;
    },
  );
  return { report, keys, breaker };
}
