// The price of a purchase against the balance, checked before anything is bought: a batch that
// cannot be paid in full stops here (exit 6) instead of buying half of it.
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../errors.js';
import { money } from '../output/index.js';
import * as shapes from '../api/shapes.js';

export interface Quote {
  unitPrice: number;
  count: number;
  total: number;
  balanceUsd: number;
  balanceAfter: number;
}

type Prices = Record<string, number>;

/** Cents, so 0.1 + 0.2 never decides whether a purchase is affordable. */
const cents = (n: number) => Math.round(n * 100);

export async function quote(api: ApiClient, unitPrice: number, count: number): Promise<Quote> {
  const account = await api.get<{ balanceUsd: number }>('/account', shapes.account);
  const balanceUsd = Number(account.balanceUsd);
  const total = cents(unitPrice) * count;
  return { unitPrice, count, total: total / 100, balanceUsd, balanceAfter: (cents(balanceUsd) - total) / 100 };
}

export function priceFor(prices: Prices | undefined, period: string, what: string): number {
  const p = prices?.[period];
  if (typeof p !== 'number' || !Number.isFinite(p)) {
    throw new ApiError({ status: 404, code: 'price_unknown', message: `the server lists no ${period} price for ${what}` });
  }
  return p;
}

export function assertAffordable(q: Quote, what: string): void {
  if (q.balanceAfter >= 0) return;
  const missing = -q.balanceAfter;
  throw new ApiError(
    {
      status: 402,
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
