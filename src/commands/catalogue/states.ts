// `proxyctl states [--country CC]`: the states or regions with pools.
import type { Result } from '../../kit/action.js';
import type { Input } from './states.command.js';
import { countryCode } from '../../kit/country.js';
import { showCollection } from './lists.js';

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const country = countryCode(flags.country);
  return showCollection(ctx, '/states', { country }, country ? `No states with pools in ${country}.` : 'No states.');
}
