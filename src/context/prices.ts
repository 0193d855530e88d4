// The customer price book of the profile in use, read from the config file as it is now (a
// `customers set` made while a server runs counts from its next answer). Every front door that
// bills (customers, spend, status, the agent's tools) reads it here.
import type { Context } from './types.js';
import { profileInUse } from './credentials.js';
import { hasPrices, priceBookOf, type PriceBook } from '../ledger/billing.js';

export async function priceBookNow(ctx: Context): Promise<PriceBook> {
  const store = await ctx.config();
  return priceBookOf(store.profileNow(profileInUse(ctx, store)));
}

/** The price book when it sets any price (billed and margin are shown), else undefined. */
export async function pricesIfSet(ctx: Context): Promise<PriceBook | undefined> {
  const book = await priceBookNow(ctx);
  return hasPrices(book) ? book : undefined;
}
