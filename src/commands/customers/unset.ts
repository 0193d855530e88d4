// `customers unset NAME`: removes the customer's prices from the profile; nothing else changes.
import type { Input } from './unset.command.js';
import { ExitCode } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import { profileInUse } from '../../context/credentials.js';
import { customerName } from './sources.js';
import { moneySettings } from '../../context/prices.js';
import type { Profile } from '../../config/store.js';

type CustomerPrices = NonNullable<Profile['customerPrices']>;

export default async function handler({ args: [raw], ctx }: Input): Promise<Result> {
  const name = customerName(raw);
  const store = await ctx.config();
  const profile = profileInUse(ctx, store);
  let had = false;
  const drop = (all: CustomerPrices | undefined) => {
    had = all?.[name] !== undefined;
    if (!all || !had) return all;
    const { [name]: _gone, ...rest } = all;
    return Object.keys(rest).length > 0 ? rest : undefined;
  };
  const settings = await moneySettings(ctx);
  if (settings.shared) {
    const next = drop((await settings.read()).customerPrices as CustomerPrices | undefined);
    if (had) await settings.set('customerPrices', next);
  } else await store.updateProfileSetting(profile, 'customerPrices', drop);
  ctx.notice(had ? `${name}: prices forgotten (profile "${profile}")` : `${name} had no prices in profile "${profile}"; nothing changed`);
  return ExitCode.ok;
}
