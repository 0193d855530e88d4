// `proxyctl pools get POOL_ID`: GET /pools/{poolId}.
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { assertFormats, pricesText, printObject, withExtraFields, withSpinner, type Column } from '../../output/index.js';
import { POOL_KEYS, poolColumns, type Pool } from './columns.js';
import * as shapes from '../../api/shapes.js';

export function checkPoolId(id: string): string {
  const v = id.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(v)) throw new UsageError(`"${id}" is not a pool id (e.g. US-12)`);
  return v;
}

export async function run(poolId: string, ctx: Context): Promise<Pool> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching pool…', () => api.get<Pool>(`/pools/${encodeURIComponent(poolId)}`, shapes.pool));
}

export default async function get({ args, ctx }: HandlerInput): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const pool = await run(checkPoolId(String(args[0])), ctx);
  // One object: a single prices row instead of a column per period.
  const columns: Column<Pool>[] = [
    ...poolColumns(undefined).slice(0, 6),
    { header: 'prices', value: (p) => p.prices, format: (p) => pricesText(p.prices) },
  ];
  await printObject(ctx, pool, { columns: withExtraFields(columns, POOL_KEYS, [pool]) });
  return 0;
}
