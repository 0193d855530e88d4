// Extend has no idempotency key, so a blind retry could charge twice. Retries happen only when
// the request provably never left (refused, DNS, connect timeout) or on 429 (the client's
// 'not-sent' policy). After an ambiguous failure (reset, timeout, 5xx) the unit is read again and
// its expiry compared with the one read before: later means the extension was applied.
import { extendUnit, getUnit } from '../api/endpoints.js';
import type { ApiClient, ApiResponse } from '../api/client.js';
import { ApiError, ConflictError, NetworkError } from '../errors.js';
import { requireExtended } from './not-applied.js';
import type { Extended, ExtendResult } from './types.js';
import { enter, extendEntry, underBudget, type Ledger, type Spend } from '../ledger/index.js';
import { runBulk, type BulkOptions, type BulkReport } from './bulk.js';
import { stopFailingPools } from './pool-stop.js';
import { cents, type Quote } from './quote.js';

export interface ExtendInput {
  ref: string;
  period: string;
  /** The balance before the batch, compared after an `extended: false` answer. */
  balanceBefore?: number | undefined;
  /** True when other extensions run at the same time (they move the balance too). */
  concurrent?: boolean | undefined;
  /**
   * The expiry the unit had when it was selected (a renewal): a later one now means another run
   * extended it since, and it is not extended again (ConflictError `extended_elsewhere`).
   */
  selectedExpiry?: string | undefined;
  /** Where the debit is entered once the extension is known applied, at `priceUsd` (the quote's). */
  ledger?: Ledger | undefined;
  priceUsd?: number | undefined;
}

function ambiguous(err: unknown): boolean {
  if (err instanceof NetworkError) return !err.notSent;
  return err instanceof ApiError && err.status >= 500;
}

function extendedSince(selected: string | undefined, now: string | undefined): boolean {
  const t0 = selected ? Date.parse(selected) : NaN;
  const t1 = now ? Date.parse(now) : NaN;
  return Number.isFinite(t0) && Number.isFinite(t1) && t1 > t0;
}

export async function extendSafely(api: ApiClient, input: ExtendInput): Promise<Extended> {
  // Read right before the attempt, never taken from an earlier listing: another process may have
  // extended the unit since, and a later expiry after a failed attempt would read as ours.
  const unit = await getUnit(api, input.ref);
  if (extendedSince(input.selectedExpiry, unit.expiresAt)) {
    throw new ConflictError(
      `${input.ref} was extended elsewhere since it was selected (it now expires at ${unit.expiresAt}); not extended again`,
      {
        code: 'extended_elsewhere',
      },
    );
  }
  const done = await extendOnce(api, input, unit.expiresAt);
  if (input.ledger && input.priceUsd !== undefined) {
    const description = typeof unit.description === 'string' ? unit.description : undefined;
    const debit = {
      ref: done.proxyRef,
      expiresAt: done.expiresAt,
      poolId: unit.poolId,
      period: input.period,
      priceUsd: input.priceUsd,
      description,
    };
    await enter(input.ledger, [extendEntry(input.ledger, debit)]);
  }
  return done;
}

async function extendOnce(api: ApiClient, input: ExtendInput, before: string | undefined): Promise<Extended> {
  const { ref, period } = input;
  let res: ApiResponse<ExtendResult>;
  try {
    res = await extendUnit(api, ref, period);
  } catch (err) {
    return recover(api, ref, period, before, err);
  }
  // An answer without `extended: true` is not done: src/units/not-applied.ts reads back and says why.
  return requireExtended(api, res, {
    ref,
    period,
    expiresAtBefore: before,
    balanceBefore: input.balanceBefore,
    concurrent: input.concurrent,
  });
}

/** After an ambiguous failure: the unit's expiry, read again, decides whether it was extended. */
async function recover(api: ApiClient, ref: string, period: string, before: string | undefined, err: unknown): Promise<Extended> {
  if (!ambiguous(err)) throw err;
  let after: string | undefined;
  try {
    // Not aborted by Ctrl-C: the user needs to know whether this unit was charged.
    after = (await getUnit(api, ref, { signal: null })).expiresAt;
  } catch (readErr) {
    throw new NetworkError(
      `could not tell whether ${ref} was extended: the request failed (${(err as Error).message}) and reading the unit back failed too (${(readErr as Error).message})`,
      { code: 'extend_unknown', hint: `check with proxyctl units get ${ref} before extending it again`, cause: err },
    );
  }
  const t0 = before ? Date.parse(before) : NaN;
  const t1 = after ? Date.parse(after) : NaN;
  if (Number.isFinite(t0) && Number.isFinite(t1) && t1 > t0) {
    return { proxyRef: ref, expiresAt: after!, extended: true };
  }
  if (Number.isFinite(t0) && Number.isFinite(t1)) {
    throw new NetworkError(`${ref} was not extended (${(err as Error).message}); its expiry is unchanged, so nothing was charged`, {
      code: err instanceof ApiError ? err.code : 'extend_not_applied',
      hint: `it is safe to run proxyctl units extend ${ref} --period ${period} again`,
      cause: err,
    });
  }
  throw new NetworkError(`could not tell whether ${ref} was extended (${(err as Error).message}): the unit has no readable expiry`, {
    code: 'extend_unknown',
    hint: `check with proxyctl units get ${ref} before extending it again`,
    cause: err,
  });
}

/** What extending a batch at one quote charges, for underBudget and the budget verdict of a dry run. */
export function extensionSpend(q: Quote, period: string, refs: readonly string[], pools?: ReadonlyMap<string, string>): Spend {
  return {
    cost: (rs: readonly string[]) => (cents(q.unitPrice) * rs.length) / 100,
    period,
    poolIds: [...(pools?.values() ?? [])],
    refs,
  };
}

export interface ExtendBatchOptions {
  refs: readonly string[];
  period: string;
  /** The batch's quote: its unit price is what the ledger enters, its balance what extendSafely compares. */
  quote: Quote;
  ledger: Ledger | undefined;
  /** Each unit's pool, when known: a pool failing upstream stops its remaining units. */
  pools?: ReadonlyMap<string, string> | undefined;
  /** Each unit's expiry when it was selected or quoted: one extended elsewhere since is not extended again. */
  expiries?: ReadonlyMap<string, string | undefined> | undefined;
  onEvent?: BulkOptions<string>['onEvent'];
  /** Told which refs another run is extending at this moment (they are left to it), before any request. */
  onHeldElsewhere?: (refs: string[]) => void;
}

/**
 * The one extend path of `units extend` and the agent's extend_units: within the ledger's policy
 * and budget (a hold on the refs, so two overlapping runs never extend a unit twice), each unit
 * extended at most once by extendSafely, a pool that keeps failing upstream stopped.
 */
export async function extendBatch(ctx: { signal: AbortSignal }, api: ApiClient, o: ExtendBatchOptions): Promise<BulkReport<ExtendResult>> {
  const extendOne = stopFailingPools(o.pools);
  return underBudget(o.ledger, extensionSpend(o.quote, o.period, o.refs, o.pools), (refs, held) => {
    const elsewhere = o.refs.filter((r) => !refs.includes(r));
    if (elsewhere.length > 0) o.onHeldElsewhere?.(elsewhere);
    const opts = {
      verb: 'extended',
      label: (r: string) => r,
      ...(held?.stop ? { stop: held.stop } : {}),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
    };
    return runBulk(ctx, [...refs], opts, (ref) =>
      extendOne(ref, () =>
        extendSafely(api, {
          ref,
          period: o.period,
          balanceBefore: o.quote.balanceUsd,
          concurrent: refs.length > 1,
          ledger: held,
          priceUsd: o.quote.unitPrice,
          selectedExpiry: o.expiries?.get(ref),
        }),
      ),
    );
  });
}
