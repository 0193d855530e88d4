// Customers are a tag in a unit's description, `customer=NAME`, with any other text beside it. Kept
// apart from the journal so a unit list that filters by customer loads no ledger machinery.
import { UsageError } from '../errors.js';

/** `customer=NAME` in a description (other text may sit beside it); the tag's convention. */
export const CUSTOMER_TAG = /(?:^|[\s,;])customer=([A-Za-z0-9._@-]{1,64})(?=$|[\s,;])/;

export function customerOf(description: string | undefined | null): string | undefined {
  if (!description) return undefined;
  return CUSTOMER_TAG.exec(description)?.[1];
}

/** The description with its customer tag set to `name` (replacing any earlier one), other text kept. */
export function withCustomer(description: string | undefined | null, name: string): string {
  const rest = (description ?? '')
    .replace(/(^|[\s,;])customer=[A-Za-z0-9._@-]{1,64}(?=$|[\s,;])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return rest ? `customer=${name} ${rest}` : `customer=${name}`;
}

/**
 * A customer name as typed (--customer, --tagged): the characters a tag can hold, else exit 2. The
 * tag as it reads in a description (`customer=acme`) names the same customer.
 */
export function parseCustomer(typed: string, flag = '--customer'): string {
  const name = typed.replace(/^customer=/i, '');
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name))
    throw new UsageError(`${flag} must be 1 to 64 letters, digits, dots, dashes, underscores or @, got "${typed}"`);
  return name;
}
