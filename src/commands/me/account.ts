// `proxyctl account`: GET /account, balance and discount.
import { getAccount } from '../../api/endpoints.js';
import { show, type Result } from '../../kit/action.js';
import type { Input } from './account.command.js';
import type { Context } from '../../context/index.js';
import { withExtraFields, withSpinner } from '../../output/index.js';
import { ACCOUNT_COLUMNS, type Snapshot } from './show.js';

export async function fetchAccount(ctx: Context): Promise<Snapshot> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching balance…', () => getAccount(api));
}

export default async function handler({ ctx }: Input): Promise<Result> {
  const value = await fetchAccount(ctx);
  return show(value, { columns: withExtraFields(ACCOUNT_COLUMNS, ['balanceUsd', 'discountPercent', 'resellerEnabled'], [value]) });
}
