import { showList, type Result } from '../../kit/action.js';
import type { Input } from './list.command.js';
import { UsageError } from '../../errors.js';
import { withExtraFieldNames, withExtraFields, withSpinner } from '../../output/index.js';
import { findPools, parsePoolFilters } from '../../units/pools.js';
import { POOL_FIELDS, POOL_KEYS, poolColumns } from './columns.js';
import { catalogueSeen, remember } from '../../kit/remember.js';

export default async function handler({ args: [poolId], flags, ctx }: Input): Promise<Result> {
  if (poolId !== undefined) {
    const filter = (['provider', 'country', 'state', 'rotation'] as const).find((f) => flags[f] !== undefined);
    if (filter)
      throw new UsageError(`--${filter} filters the list; ${poolId} names one pool: give one or the other`, {
        hint: `proxyctl pools ${poolId}, or proxyctl pools --${filter} ${flags[filter]}`,
      });
    return (await import('./get.js')).showPool(poolId, ctx);
  }
  const opts = parsePoolFilters(flags);
  const api = await ctx.api();
  // A country without pools is said after the spinner, with the nearest codes that have some.
  const { data, prices } = await findPools(api, opts, ctx, (request) => withSpinner(ctx, 'Fetching pools…', request));
  await remember(ctx, catalogueSeen(data));
  return showList(data, {
    columns: withExtraFields(poolColumns(prices), POOL_KEYS, data),
    fields: withExtraFieldNames(POOL_FIELDS, data),
    empty: 'No pools match.',
  });
}
