// One purchase that is never made twice: see idempotency.ts for the key scheme. This module owns
// the retry decisions for POST /units; the API client makes exactly one attempt per call here
// (plus its own waits on 429 and on requests that provably never left).
import { createUnit, getUnit, modifyUnit } from '../api/endpoints.js';
import type { ApiClient } from '../api/client.js';
import { createHash } from 'node:crypto';
import { abortableSleep, isReplay } from '../api/client.js';
import { ApiError, BadResponseError, ConflictError, InterruptedError, NetworkError, NotFoundError, UsageError } from '../errors.js';
import { deriveIdempotencyKey } from './idempotency.js';
import { inFlight as purchasesInFlight } from '../in-flight.js';
import type { CreateBody, Unit } from './types.js';
import { runBulk, UpstreamBreaker, type BulkOptions, type BulkReport } from './bulk.js';
import { createEntry, enter, type JournalStore, type Ledger, type LedgerEntry } from '../ledger/index.js';

export interface CreateOptions {
  baseKey: string;
  index: number;
  /** Ctrl-C: no new attempt starts once it is aborted. */
  signal: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Base delay for backoff between retries (tests shorten it). */
  delayMs?: number;
}

/** `replayed`: the answer was an earlier request's, replayed by the server for this key (nothing charged now). */
export type CreateOutcome =
  | { ok: true; unit: Unit; idempotencyKey: string; replayed: boolean }
  | { ok: false; error: unknown; idempotencyKey: string; replayed: boolean };

/** Fresh refunded failures an item sits through in one run (each under a new key) before giving up. */
const MAX_REFUNDED = 3;
/** Ambiguous failures (reset, timeout, 5xx other than a refund) retried with the same key. */
const MAX_AMBIGUOUS = 4;
/** A 2xx (or redirect) we cannot read: asked once more with the same key, which replays it. */
const MAX_UNREADABLE = 1;
const MAX_IN_FLIGHT_WAITS = 10;
/**
 * Replayed failures stepped over in one run: only a run that lost the record of how far the chain
 * went (another machine, a wiped cache) walks it again, one replay a key.
 */
const MAX_REPLAYED_STEPS = 100;

/**
 * Provisioning failed upstream and the debit was refunded (spec §7): nothing was bought under this
 * key, so a new key cannot buy twice. Any other 503 (a gateway's, say) proves nothing.
 */
function isRefund(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 503 && err.code === 'upstream_unreachable';
}

function isAmbiguous(err: unknown): boolean {
  if (err instanceof NetworkError) return !err.notSent;
  return err instanceof ApiError && err.status >= 500;
}

/** Keys are honoured for 24 hours; a record older than that says nothing about the server. */
const KEY_WINDOW_MS = 24 * 3600 * 1000;

interface SavedGeneration {
  generation: number;
  at: number;
}

/**
 * The generation item `index` of this base key is on: every key before it got a refunded failure,
 * which the server replays for the key's window, so a re-run starts on the first key not yet
 * refused instead of walking (and counting) the failures again.
 */
async function savedGeneration(api: ApiClient, cacheKey: string): Promise<number> {
  try {
    const saved = await api.records?.get<SavedGeneration>(cacheKey);
    if (!saved || !Number.isInteger(saved.generation) || saved.generation <= 0) return 0;
    return Date.now() - saved.at < KEY_WINDOW_MS ? saved.generation : 0;
  } catch {
    return 0;
  }
}

const generationKey = (api: ApiClient, baseKey: string, index: number) => `idempotency-generation:${api.baseUrl}:${baseKey}:${index}`;

interface SavedPurchase {
  proxyRef: string;
  at: number;
}

const purchaseKey = (api: ApiClient, baseKey: string, index: number) => `idempotency-bought:${api.baseUrl}:${baseKey}:${index}`;

/** Remembers that item `index` of the batch with this base key bought a unit (a re-run replays it). */
export async function rememberPurchase(api: ApiClient, baseKey: string, index: number, proxyRef: string): Promise<void> {
  await api.records?.set(purchaseKey(api, baseKey, index), { proxyRef, at: Date.now() } satisfies SavedPurchase).catch(() => undefined);
}

/** Generations of an item's key looked for in the journal (each refunded attempt moves one on). */
const JOURNAL_GENERATIONS = 16;

/**
 * The purchase records of a batch, recovered from the ledger's journal where this machine's records
 * lack them: the SDK's in-memory cache in a new process, another cache directory, a run on another
 * machine of a team. Each debit entered names its item's key, so the item it bought is known, and a
 * resume reads that unit by its ref (never buying it again) and leaves it out of what it quotes and
 * holds against the daily budget: the journal already counts it. The journal says what the key was
 * used for, as the key-use record does (assertKeyFits): a purchase under this key of another pool or
 * period is `idempotency_key_reused`, and one made more than 24 hours ago `idempotency_key_expired`
 * (the API has forgotten the key, so the batch's other items would be bought again), both before
 * anything is sent. The journal is streamed: only this batch's entries are held.
 */
export async function recoverPurchases(
  api: ApiClient,
  journal: Pick<JournalStore, 'pages'>,
  baseKey: string,
  body: CreateBody,
  count: number,
): Promise<void> {
  if (!api.records) return;
  const wanted = new Map<string, { index: number; generation: number }>();
  for (let i = 0; i < count; i++)
    for (let g = 0; g < JOURNAL_GENERATIONS; g++) wanted.set(deriveIdempotencyKey(baseKey, i, g), { index: i, generation: g });
  const found = new Map<number, { entry: LedgerEntry; generation: number }>();
  try {
    for await (const page of journal.pages({ ordered: false }))
      for (const e of page) {
        const w = e.operation === 'create' && e.idempotencyKey ? wanted.get(e.idempotencyKey) : undefined;
        if (!w) continue;
        const had = found.get(w.index);
        if (!had || w.generation < had.generation) found.set(w.index, { entry: e, generation: w.generation });
      }
  } catch {
    // A journal that cannot be read: the run quotes and holds the whole batch, as before (never less).
    return;
  }
  if (found.size === 0) return;
  const now = Date.now();
  for (const { entry } of found.values()) {
    const at = Date.parse(entry.at);
    if (!Number.isFinite(at) || now - at >= KEY_WINDOW_MS)
      throw new UsageError(
        `idempotency key ${baseKey} bought ${entry.ref} at ${entry.at}, more than 24 hours ago: the API no longer replays it, so sending it again could buy a second time; nothing was sent`,
        {
          code: 'idempotency_key_expired',
          hint: 'see what it bought with proxyctl spend or proxyctl units list; buy anything still missing with a new key (leave --idempotency-key out)',
        },
      );
    const otherPool = entry.poolId !== undefined && body.poolId !== undefined && entry.poolId !== body.poolId;
    const otherPeriod = entry.period !== undefined && body.period !== undefined && entry.period !== body.period;
    if (otherPool || otherPeriod)
      throw new ConflictError(
        `idempotency key ${baseKey} bought ${entry.ref} (${entry.poolId ?? '?'}, ${entry.period ?? '?'}) at ${entry.at}; this command asks for ${body.poolId ?? '?'}, ${body.period}; nothing was sent`,
        {
          code: 'idempotency_key_reused',
          hint: 'use a new key for a new purchase (leave --idempotency-key out and proxyctl picks one), or repeat the first command exactly to finish it',
        },
      );
  }
  let known: Awaited<ReturnType<typeof purchasesEarlier>>;
  try {
    known = await purchasesEarlier(api, baseKey, count);
  } catch {
    return;
  }
  for (const [i, { entry, generation }] of found) {
    if (known.has(i)) continue;
    const at = Date.parse(entry.at);
    await api.records.set(purchaseKey(api, baseKey, i), { proxyRef: entry.ref, at } satisfies SavedPurchase).catch(() => undefined);
    if (generation > 0)
      await api.records.set(generationKey(api, baseKey, i), { generation, at } satisfies SavedGeneration).catch(() => undefined);
  }
}

/**
 * The indices among the first `count` that an earlier run with this base key bought within the key
 * window (a re-run replays them free).
 */
export async function itemsBoughtEarlier(api: ApiClient, baseKey: string, count: number): Promise<Set<number>> {
  return new Set((await purchasesEarlier(api, baseKey, count)).keys());
}

/** The units earlier runs with this base key bought, by item (see rememberPurchase). */
async function purchasesEarlier(api: ApiClient, baseKey: string, count: number): Promise<Map<number, string>> {
  const refs = new Map<number, string>();
  for (let i = 0; i < count; i++) {
    try {
      const saved = await api.records?.get<SavedPurchase>(purchaseKey(api, baseKey, i));
      if (saved && typeof saved.proxyRef === 'string' && Date.now() - saved.at < KEY_WINDOW_MS) refs.set(i, saved.proxyRef);
    } catch {
      // an unreadable cache entry says nothing
    }
  }
  return refs;
}

/**
 * What a base key was first used for. The API replays by key alone: the same key with another
 * pool would print the first purchase's units as if bought now, so a key is bound to its request.
 */
interface KeyUse {
  poolId: string;
  period: string;
  protocol: string;
  count: number;
  /** A hash of the whole request, credentials and allowed IPs included (no password is stored). */
  request: string;
  at: number;
}

const keyUseKey = (api: ApiClient, baseKey: string) => `idempotency-request:${api.baseUrl}:${baseKey}`;

function keyUseOf(body: CreateBody, count: number): KeyUse {
  const protocol = body.protocol ?? 'socks5';
  const request = createHash('sha256')
    .update(JSON.stringify([body.poolId, body.period, protocol, count, body.credentials ?? null, body.allowedIps ?? null]))
    .digest('hex');
  return { poolId: body.poolId, period: body.period, protocol, count, request, at: Date.now() };
}

const describeUse = (u: Pick<KeyUse, 'poolId' | 'period' | 'protocol' | 'count'>) =>
  `${u.count} × ${u.period} ${u.protocol} unit${u.count === 1 ? '' : 's'} in ${u.poolId}`;

/**
 * Refuses (exit 8, before any request) a base key this client already used, within the key window,
 * for a different purchase: pool, period, protocol, count, credentials or allowed IPs.
 */
export async function assertKeyFits(api: ApiClient, baseKey: string, body: CreateBody, count: number): Promise<void> {
  let used: KeyUse | undefined;
  try {
    used = await api.records?.get<KeyUse>(keyUseKey(api, baseKey));
  } catch {
    return;
  }
  if (!used || typeof used.request !== 'string' || !Number.isFinite(used.at)) return;
  const now = keyUseOf(body, count);
  if (Date.now() - used.at >= KEY_WINDOW_MS) {
    // The API has forgotten the key: sent again, it would buy again instead of replaying. What the
    // key bought stays bought; finishing the batch takes a new key.
    throw new UsageError(
      `idempotency key ${baseKey} was first used at ${new Date(used.at).toISOString()}, more than 24 hours ago: the API no longer replays it, so sending it again could buy a second time; nothing was sent`,
      {
        code: 'idempotency_key_expired',
        hint: 'see what it bought with proxyctl spend or proxyctl units list; buy anything still missing with a new key (leave --idempotency-key out)',
      },
    );
  }
  if (used.request === now.request) return;
  const same = describeUse(used) === describeUse(now);
  throw new ConflictError(
    `idempotency key ${baseKey} was used for ${describeUse(used)} (${new Date(used.at).toISOString()}); ` +
      (same ? 'this command gives other credentials or allowed IPs' : `this command asks for ${describeUse(now)}`) +
      '; nothing was sent',
    {
      code: 'idempotency_key_reused',
      hint: 'use a new key for a new purchase (leave --idempotency-key out and proxyctl picks one), or repeat the first command exactly to finish it',
    },
  );
}

/**
 * Binds a base key to its request before the first purchase under it is sent (see assertKeyFits).
 * The record keeps the key's first use: the API's window runs from then, not from a resume.
 */
async function bindKey(api: ApiClient, baseKey: string, body: CreateBody, count: number): Promise<void> {
  await assertKeyFits(api, baseKey, body, count);
  const used = await api.records?.get<KeyUse>(keyUseKey(api, baseKey)).catch(() => undefined);
  if (used && typeof used.request === 'string' && Number.isFinite(used.at)) return;
  await api.records?.set(keyUseKey(api, baseKey), keyUseOf(body, count)).catch(() => undefined);
}

/** A replayed unit that is not what was asked for: the key was used for another purchase elsewhere. */
function replayedOther(body: CreateBody, unit: Unit, key: string): ConflictError | undefined {
  const protocol = body.protocol ?? 'socks5';
  const wrongPool = unit.poolId !== undefined && unit.poolId !== body.poolId;
  const wrongProtocol = unit.protocol !== undefined && unit.protocol !== protocol;
  if (!wrongPool && !wrongProtocol) return undefined;
  return new ConflictError(
    `the server replayed ${unit.proxyRef} (${unit.protocol ?? '?'} in ${unit.poolId ?? '?'}) for idempotency key ${key}, bought earlier by another request; this asks for ${protocol} in ${body.poolId}; nothing was bought`,
    { code: 'idempotency_key_reused', hint: 'use a new key for a new purchase (leave --idempotency-key out and proxyctl picks one)' },
  );
}

export async function createSafely(api: ApiClient, body: CreateBody, opts: CreateOptions): Promise<CreateOutcome> {
  const sleep = opts.sleep ?? abortableSleep;
  const delay = opts.delayMs ?? 500;
  const cacheKey = generationKey(api, opts.baseKey, opts.index);
  let generation = await savedGeneration(api, cacheKey);
  let key = deriveIdempotencyKey(opts.baseKey, opts.index, generation);
  let refunded = 0;
  let replayedSteps = 0;
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
      return {
        ok: false,
        error: unsettled ? unknown(new InterruptedError()) : new InterruptedError(),
        idempotencyKey: key,
        replayed: false,
      };
    try {
      // Registered while on the wire: a second Ctrl-C exits without waiting and names this key.
      const res = await purchasesInFlight.during(
        { what: `purchase #${opts.index + 1}`, idempotencyKey: key, resumeKey: opts.baseKey },
        () => createUnit(api, body, key),
      );
      const replayed = isReplay(res.headers);
      const other = replayed ? replayedOther(body, res.data, key) : undefined;
      if (other) return { ok: false, error: other, idempotencyKey: key, replayed: false };
      return { ok: true, unit: res.data, idempotencyKey: key, replayed };
    } catch (err) {
      if (err instanceof InterruptedError) {
        // Raised only while waiting for the rate budget, i.e. before this attempt was sent.
        return { ok: false, error: unsettled ? unknown(err) : err, idempotencyKey: key, replayed: false };
      }
      let waitMs: number;
      if (isRefund(err)) {
        // Nothing was bought under this key, and a server that stores failures replays this one
        // for the key's window: the next attempt takes the next key, remembered first so that a
        // re-run starts there too. A replayed failure is one an earlier run already paid its wait for.
        unsettled = false;
        generation += 1;
        key = deriveIdempotencyKey(opts.baseKey, opts.index, generation);
        await api.records?.set(cacheKey, { generation, at: Date.now() } satisfies SavedGeneration).catch(() => undefined);
        if (err.replayed) {
          replayedSteps += 1;
          if (replayedSteps > MAX_REPLAYED_STEPS) return { ok: false, error: err, idempotencyKey: key, replayed: true };
          continue;
        }
        refunded += 1;
        if (refunded > MAX_REFUNDED) return { ok: false, error: err, idempotencyKey: key, replayed: false };
        waitMs = delay * 2 ** (refunded - 1);
      } else if (err instanceof ApiError && err.status === 409 && err.code !== 'protocol_unchanged') {
        // The same key is still being processed (e.g. our own earlier attempt whose answer was lost).
        inFlight += 1;
        if (inFlight > MAX_IN_FLIGHT_WAITS)
          return { ok: false, error: unsettled ? unknown(err) : err, idempotencyKey: key, replayed: false };
        waitMs = Math.max(delay, 1000);
      } else if (err instanceof BadResponseError) {
        unsettled = true;
        unreadable += 1;
        if (unreadable > MAX_UNREADABLE) return { ok: false, error: unknown(err), idempotencyKey: key, replayed: false };
        waitMs = delay;
      } else if (isAmbiguous(err)) {
        unsettled = true;
        ambiguous += 1;
        if (ambiguous > MAX_AMBIGUOUS) return { ok: false, error: unknown(err), idempotencyKey: key, replayed: false };
        waitMs = delay * 2 ** (ambiguous - 1);
      } else {
        // Definitive for this attempt. After a lost answer, only a reply that went through the
        // idempotency check (400, 402, 404: a committed purchase would have been replayed instead)
        // proves the earlier attempt bought nothing; 401, 403 and 429 are refused before that
        // check, and a refused connection proves nothing either.
        const settles = err instanceof ApiError && ![401, 403, 429].includes(err.status);
        return { ok: false, error: unsettled && !settles ? unknown(err) : err, idempotencyKey: key, replayed: false };
      }
      try {
        await sleep(waitMs, opts.signal);
      } catch {
        return {
          ok: false,
          error: unsettled ? unknown(new InterruptedError()) : new InterruptedError(),
          idempotencyKey: key,
          replayed: false,
        };
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
  /** Given each unit as its item is done (bought, or replayed by the key), with its description written. */
  onUnit?: (unit: Unit) => void;
  /** Written on each unit right after its purchase (`--description`, `--customer`), and again on a re-run. */
  description?: string | undefined;
  /** Where each debit is entered, at `priceUsd` a unit (the quote's). */
  ledger?: Ledger | undefined;
  priceUsd?: number | undefined;
}

export interface Batch {
  /** Outcomes in batch order; `index` is the item's place in the batch. */
  report: BulkReport<Unit>;
  /** Each started item's own idempotency key, by index. */
  keys: string[];
  /** Items whose unit an earlier run bought: replayed now, not charged by this run. */
  replayed: Set<number>;
  breaker: UpstreamBreaker;
  /** Units bought whose description could not be written, with why: a re-run with the same key writes it. */
  untagged: Map<string, string>;
}

/**
 * `count` purchases of `body`, each through createSafely with its own key derived from `baseKey`,
 * stopped when the pool fails upstream (UpstreamBreaker), each bought unit recorded for resuming.
 * `units create` and the SDK's createUnitsSafely both buy through this one loop. A re-run with the
 * same key (bound to the same request, see assertKeyFits) replays what earlier runs bought first,
 * so a pool failing now cannot stop it before it has shown every unit the key owns, then buys the
 * rest under fresh keys.
 */
export async function createBatch(api: ApiClient, body: CreateBody, o: BatchOptions): Promise<Batch> {
  await bindKey(api, o.baseKey, body, o.count);
  const earlier = await purchasesEarlier(api, o.baseKey, o.count);
  const order = [
    ...Array.from({ length: o.count }, (_, i) => i).filter((i) => earlier.has(i)),
    ...Array.from({ length: o.count }, (_, i) => i).filter((i) => !earlier.has(i)),
  ];
  const keys: string[] = [];
  const replayed = new Set<number>();
  const untagged = new Map<string, string>();
  const breaker = new UpstreamBreaker();
  // Items still retrying when the breaker trips stop at their next attempt, as on Ctrl-C; so do
  // they when the shared ledger is lost (a debit it could not take): nothing more is charged.
  const ledgerStop = o.ledger?.stop;
  const stop = ledgerStop ? AbortSignal.any([breaker.signal, ledgerStop]) : breaker.signal;
  const signal = AbortSignal.any([o.signal, stop]);
  const report = await runBulk(
    { signal: o.signal },
    order,
    {
      verb: 'created',
      label: (i) => `#${i + 1}`,
      stop,
      ...(o.describe ? { describe: o.describe } : {}),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      ...(o.onUnit ? { onSuccess: (v: unknown) => o.onUnit?.(v as Unit) } : {}),
      ...(o.concurrency ? { concurrency: o.concurrency } : {}),
    },
    async (i) => {
      const before = earlier.get(i);
      let out: CreateOutcome;
      if (before !== undefined) {
        // Bought by an earlier run: read by its ref, never asked for again. Re-sending the key to
        // have it replayed would buy anew once the API's window has passed on the API's clock,
        // which may run ahead of this machine's.
        out = {
          ...(await boughtEarlier(api, before)),
          idempotencyKey: deriveIdempotencyKey(o.baseKey, i, await savedGeneration(api, generationKey(api, o.baseKey, i))),
          replayed: true,
        };
      } else {
        out = await createSafely(api, body, { baseKey: o.baseKey, index: i, signal });
        breaker.record(out.ok, out.ok ? undefined : out.error);
      }
      keys[i] = out.idempotencyKey;
      if (!out.ok) throw out.error;
      // The server's word where it gives one; else the unit this item bought before, by ref.
      if (out.replayed || before === out.unit.proxyRef) replayed.add(i);
      o.onBought?.(out.unit.proxyRef);
      if (before === undefined) await rememberPurchase(api, o.baseKey, i, out.unit.proxyRef);
      const unit = o.description === undefined ? out.unit : await tag(api, out.unit, o.description, untagged);
      // Replays are entered too: the entry's id is the unit's, so one a killed run never wrote is
      // recovered here, and one already written is not counted twice.
      if (o.ledger && o.priceUsd !== undefined) {
        const entry = {
          ref: unit.proxyRef,
          poolId: body.poolId,
          period: body.period,
          priceUsd: o.priceUsd,
          idempotencyKey: out.idempotencyKey,
        };
        const description = typeof unit.description === 'string' ? unit.description : undefined;
        await enter(o.ledger, [createEntry(o.ledger, { ...entry, description })]);
      }
      return unit;
    },
  );
  // Back in batch order, each outcome indexed by its item.
  report.outcomes = report.outcomes.map((x) => ({ ...x, index: order[x.index]! })).sort((a, b) => a.index - b.index);
  return { report, keys, replayed, breaker, untagged };
}

/** A unit an earlier run bought, as the API has it now (one that is gone is shown by its ref alone). */
async function boughtEarlier(api: ApiClient, ref: string): Promise<{ ok: true; unit: Unit } | { ok: false; error: unknown }> {
  try {
    return { ok: true, unit: await getUnit(api, ref) };
  } catch (err) {
    if (err instanceof NotFoundError || (err instanceof ApiError && err.status === 404))
      return { ok: true, unit: { proxyRef: ref } as Unit };
    return { ok: false, error: err };
  }
}

/**
 * Writes the description on a unit just bought. A failure never hides the purchase: the unit is
 * returned as bought and the failure noted (a re-run with the same key replays it and tries again).
 */
async function tag(api: ApiClient, unit: Unit, description: string, untagged: Map<string, string>): Promise<Unit> {
  if (unit.description === description) return unit;
  try {
    await modifyUnit(api, unit.proxyRef, { description });
    return { ...unit, description };
  } catch (err) {
    untagged.set(unit.proxyRef, (err as Error).message);
    return unit;
  }
}
