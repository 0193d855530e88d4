import { listPools as getPoolList } from '../../api/endpoints.js';
import { showList, type Result } from '../../kit/action.js';
import type { Input } from './list.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { withExtraFieldNames, withExtraFields, withSpinner } from '../../output/index.js';
import { byCountry, countryCode } from '../../kit/country.js';
import { POOL_FIELDS, POOL_KEYS, poolColumns, type Pool } from './columns.js';
import { catalogueSeen, remember } from '../../kit/remember.js';

export interface ListOptions {
  provider?: string | undefined;
  country?: string | undefined;
  state?: string | undefined;
  rotation?: string | undefined;
}

export function parseOptions(flags: ListOptions): ListOptions {
  return { provider: flags.provider, country: countryCode(flags.country), state: flags.state, rotation: flags.rotation };
}

export async function listPools(opts: ListOptions, ctx: Context): Promise<{ data: Pool[]; prices: Record<string, unknown> | undefined }> {
  const api = await ctx.api();
  let prices: Record<string, unknown> | undefined;
  // A country without pools is said after the spinner, with the nearest codes that have some.
  const data = await byCountry(ctx, api, opts.country, async () => {
    const body = await withSpinner(ctx, 'Fetching pools…', () =>
      getPoolList(api, {
        provider: opts.provider,
        country: opts.country,
        state: opts.state,
        rotation: opts.rotation,
      }),
    );
    prices = body?.prices;
    return Array.isArray(body?.data) ? body.data : [];
  });
  return { data, prices };
}

export default async function handler({ args: [poolId], flags, ctx }: Input): Promise<Result> {
  if (poolId !== undefined) {
    const filter = (['provider', 'country', 'state', 'rotation'] as const).find((f) => flags[f] !== undefined);
    if (filter)
      throw new UsageError(`--${filter} filters the list; ${poolId} names one pool: give one or the other`, {
        hint: `proxyctl pools ${poolId}, or proxyctl pools --${filter} ${flags[filter]}`,
      });
    return (await import('./get.js')).showPool(poolId, ctx);
  }
  const opts = parseOptions(flags);
  const { data, prices } = await listPools(opts, ctx);
  await remember(ctx, catalogueSeen(data));
  return showList(data, {
    columns: withExtraFields(poolColumns(prices), POOL_KEYS, data),
    fields: withExtraFieldNames(POOL_FIELDS, data),
    empty: 'No pools match.',
  });
}
