// `units get REF`: one unit, with its connection string.
import { show, type Result } from '../action.js';
import type { Input } from './get.command.js';
import type { Context } from '../../context/index.js';
import { assertFormats } from '../../output/index.js';
import type { Unit } from '../../units/types.js';
import { parseRef } from '../../units/validate.js';
import { unitDetailView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';

export async function run(ref: string, ctx: Context): Promise<Unit> {
  const api = await ctx.api();
  return api.get<Unit>(`/units/${encodeURIComponent(ref)}`, shapes.unit);
}

export default async function handler({ args: [raw], ctx }: Input): Promise<Result> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
  const ref = parseRef(raw);
  return show(await run(ref, ctx), unitDetailView);
}
