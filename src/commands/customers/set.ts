// `customers set NAME --markup P% | --price PERIOD=USD…`: every value checked before anything is
// written (a bad one is exit 2 and changes nothing), then merged into the customer's prices under
// the lock of where they live (the config file's, or the shared ledger's for the team's), so a
// parallel `customers set` for another customer, on this machine or another, is never lost.
import type { Input } from './set.command.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import { markupText, parseMarkup, parsePrices } from '../../ledger/billing.js';
import { money } from '../../output/index.js';
import { customerName, whose } from './sources.js';
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
  // The profile's prices, or the team's in the shared ledger (every machine bills with them): one
  // locked change from the prices as they are then, so another customer set meanwhile stays.
  const settings = await moneySettings(ctx);
  await settings.update<CustomerPrices>('customerPrices', merge);
  const said = [
    ...(markupPercent !== undefined ? [`markup ${markupText(markupPercent)}`] : []),
    ...Object.entries(prices).map(([p, usd]) => `${p} at ${money(usd)}`),
  ];
  ctx.notice(`${name}: ${said.join(', ')} (${await whose(ctx, settings)})`);
  return ExitCode.ok;
}
