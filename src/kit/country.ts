// Country codes are ISO 3166-1 alpha-2: checked locally (no request on a typo) and uppercased;
// a code the catalogue has no pools in is said, with the nearest ones it has.
import type { ApiClient } from '../api/index.js';
import type { BaseContext } from '../globals.js';
import { UsageError } from '../errors.js';
import { countryMiss, explainingMiss } from '../units/catalogue-ids.js';

export function countryCode(value: string | undefined, flag = '--country'): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^[A-Za-z]{2}$/.test(v)) throw new UsageError(`${flag} must be a two-letter ISO country code such as US or DE (got "${value}")`);
  return v.toUpperCase();
}

/**
 * A request filtered by `country`: a 404 for a country the catalogue lacks says the nearest codes
 * (exit 5), and so does an empty answer, as a warning (the empty list still prints, exit 0).
 */
export async function byCountry<T>(
  ctx: BaseContext,
  api: ApiClient,
  country: string | undefined,
  request: () => Promise<T[]>,
): Promise<T[]> {
  if (country === undefined) return request();
  const rows = await explainingMiss(request, () => countryMiss(api, country));
  if (rows.length === 0) {
    const miss = await countryMiss(api, country);
    if (miss !== undefined) ctx.warn(miss.message);
  }
  return rows;
}
