// `units swap REF --pool NEW`: free, keeps the remaining time; prints the new connection.
import { show, type Result } from '../action.js';
import type { Input } from './swap.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { assertFormats } from '../../output/index.js';
import type { Unit } from '../../units/types.js';
import { explainingMiss, normalisePoolId, poolMiss } from '../../units/catalogue-ids.js';
import { parseRef } from '../../units/validate.js';
import { unitDetailView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';

export async function run(ref: string, newPoolId: string, ctx: Context): Promise<Unit> {
  const api = await ctx.api();
  // A second swap would move the unit again, so only a request that never left is retried.
  const res = await explainingMiss(
    () => api.request<Unit>('POST', `/units/${encodeURIComponent(ref)}/swap`, shapes.unit, { body: { newPoolId }, retry: 'not-sent' }),
    () => poolMiss(api, newPoolId, true),
  );
  return res.data;
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
  const ref = parseRef(raw);
  const pool = flags.pool === undefined ? undefined : normalisePoolId(flags.pool);
  if (!pool) throw new UsageError('--pool needs the new pool id (see proxyctl pools)');
  return show(await run(ref, pool, ctx), unitDetailView);
}
