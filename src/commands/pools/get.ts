// `proxyctl pools get POOL_ID`: GET /pools/{poolId}.
import { getPool } from '../../api/endpoints.js';
import { show, type Result, type Shown } from '../../kit/action.js';
import type { Input } from './get.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { pricesText, withExtraFields, withSpinner, type Column } from '../../output/index.js';
import { POOL_KEYS, poolColumns, type Pool } from './columns.js';
import { explainingMiss, normalisePoolId, poolMiss } from '../../units/catalogue-ids.js';
import { catalogueSeen, remember } from '../../kit/remember.js';

export function checkPoolId(id: string): string {
  const v = id.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(v)) throw new UsageError(`"${id}" is not a pool id (e.g. US-12)`);
  return normalisePoolId(v);
}

export async function fetchPool(poolId: string, ctx: Context): Promise<Pool> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching pool…', () =>
    explainingMiss(
      () => getPool(api, poolId),
      () => poolMiss(api, poolId),
    ),
  );
}

export default async function handler({ args: [poolId], ctx }: Input): Promise<Result> {
  return showPool(poolId, ctx);
}

/** One pool with its prices: `pools get US-12`, and `pools US-12` through the list's argument. */
export async function showPool(poolId: string, ctx: Context): Promise<Shown> {
  const pool = await fetchPool(checkPoolId(poolId), ctx);
  await remember(ctx, catalogueSeen([pool]));
  // One object: a single prices row instead of a column per period.
  const columns: Column<Pool>[] = [
    ...poolColumns(undefined).slice(0, 6),
    { header: 'prices', value: (p) => p.prices, format: (p) => pricesText(p.prices) },
  ];
  return show(pool, { columns: withExtraFields(columns, POOL_KEYS, [pool]) });
}
