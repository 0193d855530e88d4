// `units extend --expiring-within HOURS --period P`: selects the units about to expire and builds
// the batch for extend.ts. Every page of active units expiring within HOURS (the same server-side
// filter as `units list --expiring-within`, checked again here, then --pool, --customer (the exact
// tag) and --description-contains; the rules are src/units/select.ts) becomes one batch for the extend path:
// one quote (count × price, balance before → after), --max-spend (exit 2) and the balance (exit 6)
// checked before any extend request, asked on a terminal (--yes elsewhere, refused before any
// request), then each unit extended at most once. This module chooses the batch; extend.ts runs it.
import { emit, showList } from '../../kit/action.js';
import type { Input } from './extend.command.js';
import type { Context } from '../../context/index.js';
import type { Prompter } from '../../context/prompt.js';
import { UsageError } from '../../errors.js';
import { escapeControl } from '../../output/index.js';
import { normalisePoolIdFlag, poolMiss } from '../../units/catalogue-ids.js';
import { parseCustomer } from '../../ledger/customer.js';
import { parseUsd } from '../../units/quote.js';
import {
  collectExpiring,
  describeSelection,
  expiringQuery,
  nothingExpiring,
  poolsByRef,
  type ExpiringCriteria,
} from '../../units/select.js';
import { parsePeriod, type Period } from '../../units/validate.js';
import { allUnits, getPrices } from '../../api/endpoints.js';
import { parseHours } from '../../kit/options.js';
import { CHARGES, PERIOD_LIST, periodChoices } from './ask.js';

type Flags = Input['flags'];

/**
 * The batch to extend (extend.ts's `extendUnits` options), or undefined when nothing matched
 * (said on stderr, an empty list on stdout for scripts).
 */
export async function selectExpiring(flags: Flags, ctx: Context) {
  // Every flag is checked before any request.
  const hours = parseHours(flags.expiringWithin, '--expiring-within') as number;
  const criteria: ExpiringCriteria = {
    hours,
    poolId: normalisePoolIdFlag(flags.pool),
    customer: flags.customer === undefined ? undefined : parseCustomer(flags.customer),
    text: flags.descriptionContains,
  };
  const maxSpend = parseUsd(flags.maxSpend, '--max-spend');
  let period: Period | undefined = flags.period === undefined ? undefined : parsePeriod(flags.period);
  const dryRun = flags.dryRun === true;
  const example = `proxyctl units extend --expiring-within ${hours} --period ${period ?? '7d'} --yes`;
  // A prompt is needed to choose the period or to confirm the charge; without a terminal both are
  // flags, and their absence is exit 2 here, before anything is read.
  let ask: Prompter | undefined;
  if (period === undefined || (!dryRun && !ctx.globals.yes)) {
    ask = await ctx.prompt.open({
      unavailable:
        period === undefined
          ? new UsageError(`--period is required (${PERIOD_LIST})`, { hint: `e.g. ${example}` })
          : new UsageError(`refusing to extend units expiring within ${hours} h without confirmation`, {
              hint: `each unit is charged; add --yes to confirm (or --dry-run to see the quote first): ${example}`,
            }),
      cancelled: CHARGES.extend.cancelled,
    });
  }

  const api = await ctx.api();
  // The whole selection is needed for one quote, so it is collected.
  const units = await collectExpiring(allUnits(api, expiringQuery(criteria)), criteria, ctx.now().getTime());
  if (units.size === 0) {
    // Nothing to extend is not an error: nothing is charged, and a script sees an empty list.
    await emit(ctx, showList([], { empty: escapeControl(nothingExpiring(criteria)) }));
    // A pool the catalogue does not hold is a typo worth a warning, as in `units list --pool`.
    const miss = criteria.poolId ? await poolMiss(api, criteria.poolId) : undefined;
    if (miss) ctx.warn(miss.message);
    return undefined;
  }
  const refs = [...units.keys()];
  const selection = describeSelection(refs, criteria);
  let prices: Record<string, number> | undefined;
  if (period === undefined) {
    prices = await getPrices(api);
    period = await ask!.select({
      message: escapeControl(`Extend ${selection} by`),
      choices: periodChoices(prices, refs.length > 1),
    });
  }
  return {
    refs,
    period,
    dryRun,
    confirm: ask?.confirm,
    prices,
    maxSpend,
    what: `extending ${selection} by ${period}`,
    list: true,
    pools: poolsByRef(units),
    expiries: new Map([...units].map(([ref, u]) => [ref, u.expiresAt])),
    fit: flags.fit === true,
  };
}
