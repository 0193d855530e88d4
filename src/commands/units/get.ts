// `units get REF`: one unit, with its connection string.
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context/index.js';
import { assertFormats, printObject } from '../../output/index.js';
import type { Unit } from '../../units/types.js';
import { parseRef } from '../../units/validate.js';
import { unitDetailView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';

export async function run(ref: string, ctx: Context): Promise<Unit> {
  const api = await ctx.api();
  return api.get<Unit>(`/units/${encodeURIComponent(ref)}`, shapes.unit);
}

export default async function handler({ args, ctx }: HandlerInput): Promise<void> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
  const ref = parseRef(args[0]);
  await printObject(ctx, await run(ref, ctx), unitDetailView);
}
