// The price of a purchase against the balance, checked before anything is bought: a batch that
// cannot be paid in full stops here (exit 6) instead of buying half of it.
import { getPool, getPrices, readBalance } from '../api/endpoints.js';
import type { ApiClient } from '../api/client.js';
import { ApiError, UsageError } from '../errors.js';
import { money } from '../output/index.js';
import type * as shapes from '../api/shapes.js';
import { assertKeyFits, itemsBoughtEarlier } from './create-safely.js';
import type { CreateInput } from './create-input.js';
import type { CreateBody, Pool } from './types.js';
import { explainingMiss, poolMiss } from './catalogue-ids.js';

export interface Quote {
  unitPrice: number;
  count: number;
  total: number;
  balanceUsd: number;
  balanceAfter: number;
}

type Prices = shapes.Prices;

/** Cents, so 0.1 + 0.2 never decides whether a purchase is affordable. */
export const cents = (n: number) => Math.round(n * 100);

export async function quote(api: ApiClient, unitPrice: number, count: number): Promise<Quote> {
  // shapes.account guarantees a finite balanceUsd.
  const balanceUsd = await readBalance(api);
  const total = cents(unitPrice) * count;
  return { unitPrice, count, total: total / 100, balanceUsd, balanceAfter: (cents(balanceUsd) - total) / 100 };
}

/** The quote of extending `count` units by `period`: the price list's price (read unless given) against the balance. */
export async function quoteExtension(api: ApiClient, period: string, count: number, prices?: Prices): Promise<Quote> {
  const list = prices ?? (await getPrices(api));
  return quote(api, priceFor(list, period, 'an extension'), count);
}

export function priceFor(prices: Prices | undefined, period: string, what: string): number {
  const p = prices?.[period];
  if (typeof p !== 'number' || !Number.isFinite(p)) {
    throw new ApiError({ status: 404, answered: false, code: 'price_unknown', message: `the server lists no ${period} price for ${what}` });
  }
  return p;
}

export function assertAffordable(q: Quote, what: string): void {
  if (q.balanceAfter >= 0) return;
  const missing = -q.balanceAfter;
  throw new ApiError(
    {
      status: 402,
      answered: false,
      code: 'insufficient_balance',
      message: `${what} costs ${money(q.total)} but the balance is ${money(q.balanceUsd)}: ${money(missing)} missing; nothing was bought`,
      required: q.total,
    },
    `top up ${money(missing)} (or lower --count) and run the command again`,
  );
}

export function describeQuote(q: Quote, what: string): string {
  const each = q.count > 1 ? ` (${q.count} × ${money(q.unitPrice)})` : '';
  return `${what}: ${money(q.total)}${each}; balance ${money(q.balanceUsd)} → ${money(q.balanceAfter)} after purchase`;
}

/** GET /pools/{id}, refused (exit 5) when the pool is not available: nothing is quoted or bought from it. */
export async function availablePool(api: ApiClient, poolId: string): Promise<Pool> {
  const pool = await explainingMiss(
    () => getPool(api, poolId),
    () => poolMiss(api, poolId, true),
  );
  if (pool.available === false) {
    throw new ApiError(
      { status: 404, answered: false, code: 'pool_not_available', message: `pool ${poolId} is not available right now` },
      'pick another pool: proxyctl pools --country …',
    );
  }
  return pool;
}

export interface PurchasePlan {
  /** Items an earlier run with the same idempotency key bought: replayed free, not quoted. */
  earlier: number;
  /** Which items those are (indices of the batch), read once from the purchase records. */
  replayed: Set<number>;
  toBuy: number;
  quote: Quote;
  /** The pool as read for the quote (available, with its prices). */
  pool: Pool;
}

/**
 * The one quote of `units create`, guided or not: what is left to buy, from a pool that is
 * available, at its price for the period, against the balance.
 */
export async function planPurchase(api: ApiClient, input: CreateInput): Promise<PurchasePlan> {
  // A key reused for another purchase is refused before anything is sent (exit 8).
  if (input.baseKey) await assertKeyFits(api, input.baseKey, input.body as CreateBody, input.count);
  const replayed = input.baseKey ? await itemsBoughtEarlier(api, input.baseKey, input.count) : new Set<number>();
  const earlier = replayed.size;
  const toBuy = input.count - earlier;
  const pool = await availablePool(api, input.body.poolId);
  const q = await quote(api, priceFor(pool.prices, input.body.period, `pool ${input.body.poolId}`), toBuy);
  return { earlier, replayed, toBuy, quote: q, pool };
}

/** A USD amount typed on the command line ("50", "12.5", "0.99"): cents at most, never negative. */
export function parseUsd(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const s = raw.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(s) || !Number.isFinite(Number(s)))
    throw new UsageError(`${flag} must be an amount in USD such as 50 or 12.50, got "${raw}"`);
  return Number(s);
}

/** The user's own ceiling: a total above --max-spend is refused (exit 2) before anything is charged. */
export function assertWithinMaxSpend(q: Quote, maxSpend: number | undefined, what: string): void {
  if (maxSpend === undefined || cents(q.total) <= cents(maxSpend)) return;
  throw new UsageError(`${what} costs ${money(q.total)}, more than --max-spend ${money(maxSpend)}; nothing was charged`, {
    code: 'max_spend_exceeded',
    hint: 'raise --max-spend, or select fewer units (--pool, --description-contains, a smaller --expiring-within)',
  });
}
