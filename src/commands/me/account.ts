// `proxyctl account`: GET /account, balance and discount.
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context/index.js';
import { assertFormats, printObject, withExtraFields, withSpinner } from '../../output/index.js';
import { ACCOUNT_COLUMNS, type Snapshot } from './show.js';
import * as shapes from '../../api/shapes.js';

export async function run(ctx: Context): Promise<Snapshot> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching balance…', () => api.get<Snapshot>('/account', shapes.account));
}

export default async function account({ ctx }: HandlerInput): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const value = await run(ctx);
  await printObject(ctx, value, { columns: withExtraFields(ACCOUNT_COLUMNS, ['balanceUsd', 'discountPercent', 'resellerEnabled'], [value]) });
  return 0;
}
