// `units swap REF --pool NEW`: free, keeps the remaining time; prints the new connection.
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { assertFormats, printObject } from '../../output/index.js';
import type { Unit } from '../../units/types.js';
import { parseRef } from '../../units/validate.js';
import { unitDetailView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';

export async function run(ref: string, newPoolId: string, ctx: Context): Promise<Unit> {
  const api = await ctx.api();
  // A second swap would move the unit again, so only a request that never left is retried.
  const res = await api.request<Unit>('POST', `/units/${encodeURIComponent(ref)}/swap`, shapes.unit, { body: { newPoolId }, retry: 'not-sent' });
  return res.data;
}

export default async function handler({ args, flags, ctx }: HandlerInput<{ pool?: string }>): Promise<void> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
  const ref = parseRef(args[0]);
  const pool = flags.pool?.trim();
  if (!pool) throw new UsageError('--pool needs the new pool id (see proxyctl pools)');
  await printObject(ctx, await run(ref, pool, ctx), unitDetailView);
}
