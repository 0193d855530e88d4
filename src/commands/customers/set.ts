// `customers set NAME --markup P% | --price PERIOD=USD…`: every value checked before anything is
// written (a bad one is exit 2 and changes nothing), then merged into the customer's prices under
// the config file's lock, so a parallel `customers set` for another customer is never lost.
import type { Input } from './set.command.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import { profileInUse } from '../../context/credentials.js';
import { markupText, parseMarkup, parsePrices } from '../../ledger/billing.js';
import { money } from '../../output/index.js';
import { customerName } from './sources.js';
import { moneySettings } from '../../context/prices.js';
import type { Profile } from '../../config/store.js';

type CustomerPrices = NonNullable<Profile['customerPrices']>;

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const name = customerName(raw);
  const markupPercent = flags.markup === undefined ? undefined : parseMarkup(flags.markup);
  const prices = parsePrices(flags.price ?? []);
  if (markupPercent === undefined && Object.keys(prices).length === 0)
    throw new UsageError('give --markup PERCENT, --price PERIOD=USD, or both', { hint: 'e.g. proxyctl customers set acme --markup 30%' });
  const merge = (all: CustomerPrices | undefined): CustomerPrices => {
    const before = all?.[name] ?? {};
    const next = {
      ...before,
      ...(markupPercent !== undefined ? { markupPercent } : {}),
      ...(Object.keys(prices).length > 0 ? { prices: { ...(before.prices ?? {}), ...prices } } : {}),
    };
    return { ...(all ?? {}), [name]: next };
  };
  const settings = await moneySettings(ctx);
  const store = await ctx.config();
  const profile = profileInUse(ctx, store);
  if (settings.shared) {
    // The team's prices, in the shared ledger: every machine bills with them.
    await settings.set('customerPrices', merge((await settings.read()).customerPrices as CustomerPrices | undefined));
  } else await store.updateProfileSetting(profile, 'customerPrices', merge);
  const said = [
    ...(markupPercent !== undefined ? [`markup ${markupText(markupPercent)}`] : []),
    ...Object.entries(prices).map(([p, usd]) => `${p} at ${money(usd)}`),
  ];
  ctx.notice(`${name}: ${said.join(', ')} (${settings.shared ? `the team's, in ${settings.where}` : `profile "${profile}"`})`);
  return ExitCode.ok;
}
