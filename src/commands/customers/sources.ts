// What the customers verbs read besides the API: the account's ledger and the price book stored
// with the profile in use (read from the file as it is now).
import type { Context } from '../../context/index.js';
import { priceBookNow } from '../../context/prices.js';
import type { ReportSources } from '../../ledger/customer-report.js';
import { parseCustomer } from '../../ledger/customer.js';
import { NotFoundError } from '../../errors.js';
import type { SettingsSource } from '../../ledger/store.js';
import { profileInUse } from '../../context/credentials.js';

export async function reportSources(ctx: Context): Promise<ReportSources> {
  const [ledger, book] = await Promise.all([ctx.ledger(), priceBookNow(ctx)]);
  return { journal: ledger.journal, book };
}

/** A customer name as typed (`acme` or `customer=acme`), exit 2 when it cannot be a tag. */
export const customerName = (raw: string) => parseCustomer(raw, 'NAME');

export function unknownCustomer(name: string, what: string): NotFoundError {
  return new NotFoundError(`no customer "${name}": ${what}`, {
    code: 'customer_not_found',
    hint: 'proxyctl customers lists the customers; units are tagged with units create/modify --customer NAME',
  });
}

/** Whose prices a change went to, for its notice: the team's (and where) or the profile's. */
export async function whose(ctx: Context, settings: SettingsSource): Promise<string> {
  return settings.shared ? `the team's, in ${settings.where}` : `profile "${profileInUse(ctx, await ctx.config())}"`;
}
