// `customers unset NAME`: removes the customer's prices (the profile's, or the team's with a shared
// ledger) under the same lock as `customers set`; nothing else changes.
import type { Input } from './unset.command.js';
import { ExitCode } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import { customerName, whose } from './sources.js';
import { moneySettings } from '../../context/prices.js';
import type { Profile } from '../../config/store.js';

type CustomerPrices = NonNullable<Profile['customerPrices']>;

export default async function handler({ args: [raw], ctx }: Input): Promise<Result> {
  const name = customerName(raw);
  let had = false;
  const drop = (all: CustomerPrices | undefined) => {
    had = all?.[name] !== undefined;
    if (!all || !had) return all;
    const { [name]: _gone, ...rest } = all;
    return Object.keys(rest).length > 0 ? rest : undefined;
  };
  const settings = await moneySettings(ctx);
  await settings.update<CustomerPrices>('customerPrices', drop);
  const owner = await whose(ctx, settings);
  ctx.notice(had ? `${name}: prices forgotten (${owner})` : `${name} had no prices (${owner}); nothing changed`);
  return ExitCode.ok;
}
