// `units get REF`: one unit, with its connection string.
import { getUnit } from '../../api/endpoints.js';
import type { Input } from './get.command.js';
import { show, type Result } from '../../kit/action.js';
import { withConnFormat } from '../../output/conn.js';
import { parseRef } from '../../units/validate.js';
import { unitDetailView } from '../../units/view.js';
import { remember, unitsSeen } from '../../kit/remember.js';

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const view = withConnFormat(ctx, unitDetailView, flags.connFormat);
  const ref = parseRef(raw);
  const api = await ctx.api();
  const unit = await getUnit(api, ref);
  await remember(ctx, unitsSeen([unit]));
  return show(unit, view);
}
