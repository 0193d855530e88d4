// The customer price book of the profile in use, read as it is now (a `customers set` made while a
// server runs counts from its next answer): the profile's, in the config file, or with a shared
// ledger (ledger-url) the team's, in the database. Every front door that bills (customers, spend,
// status, the agent's tools) reads it here, and `customers set/unset` write it through `moneySettings`.
import type { Context } from './types.js';
import { hasPrices, priceBookOf, type PriceBook } from '../ledger/billing.js';
import type { SettingsSource } from '../ledger/store.js';

/** Where the money settings live: the profile's in config.json, or the team's with a shared ledger. */
export async function moneySettings(ctx: Context): Promise<SettingsSource> {
  const { settingsSource } = await import('./ledger.js');
  return settingsSource(ctx);
}

export async function priceBookNow(ctx: Context): Promise<PriceBook> {
  return priceBookOf((await (await moneySettings(ctx)).read()) as Parameters<typeof priceBookOf>[0]);
}

/** The price book when it sets any price (billed and margin are shown), else undefined. */
export async function pricesIfSet(ctx: Context): Promise<PriceBook | undefined> {
  const book = await priceBookNow(ctx);
  return hasPrices(book) ? book : undefined;
}
