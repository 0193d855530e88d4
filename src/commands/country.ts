// Country codes are ISO 3166-1 alpha-2: checked locally (no request on a typo) and uppercased.
import { UsageError } from '../errors.js';

export function countryCode(value: string | undefined, flag = '--country'): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^[A-Za-z]{2}$/.test(v)) throw new UsageError(`${flag} must be a two-letter ISO country code such as US or DE (got "${value}")`);
  return v.toUpperCase();
}
