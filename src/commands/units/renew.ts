// `units extend --expiring-within HOURS --period P`: renew what is about to expire. Every page of
// active units expiring within HOURS (the same server-side filter as `units list
// --expiring-within`, checked again here, then --pool and --description-contains) becomes one
// batch for the extend path of extend.ts: one quote (count × price, balance before → after),
// --max-spend (exit 2) and the balance (exit 6) checked before any extend request, asked on a
// terminal (--yes elsewhere, refused before any request), then each unit extended at most once.
// This module chooses the batch; extend.ts runs it.
import { emit, showList } from '../action.js';
import type { Input } from './extend.command.js';
import type { Context } from '../../context/index.js';
import type { Prompter } from '../../context/prompt.js';
import { UsageError } from '../../errors.js';
import { escapeControl } from '../../output/index.js';
import { normalisePoolIdFlag, poolMiss } from '../../units/catalogue-ids.js';
import { parseUsd } from '../../units/quote.js';
import { descriptionMatcher, expiringWithin } from '../../units/select.js';
import type { Unit } from '../../units/types.js';
import { MAX_PAGE_SIZE, parsePeriod, type Period } from '../../units/validate.js';
import * as shapes from '../../api/shapes.js';
import { parseInteger } from '../options.js';
import { CHARGES, PERIOD_LIST, periodChoices } from './ask.js';

type Flags = Input['flags'];

/** "3 units expiring within 24 h in pool US-12 whose description contains "acme"" */
function describeSelection(count: number, hours: number, poolId: string | undefined, text: string | undefined): string {
  const units = count === 1 ? '1 unit' : `${count} units`;
  const pool = poolId ? ` in pool ${poolId}` : '';
  const tag = text !== undefined ? ` whose description contains "${text}"` : '';
  return `${units} expiring within ${hours} h${pool}${tag}`;
}

/** ref → a text field of the listed unit, where it has one. */
function byRef(units: ReadonlyMap<string, Unit>, pick: (u: Unit) => unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const [ref, u] of units) {
    const v = pick(u);
    if (typeof v === 'string') out.set(ref, v);
  }
  return out;
}

/** "PRX-1, PRX-2, PRX-3 and 7 more" */
function someRefs(refs: string[]): string {
  return refs.length > 5 ? `${refs.slice(0, 5).join(', ')} and ${refs.length - 5} more` : refs.join(', ');
}

/**
 * The batch to extend (extend.ts's `extendUnits` options), or undefined when nothing matched (said on
 * stderr, an empty list on stdout for scripts).
 */
export async function selectRenewal(flags: Flags, ctx: Context) {
  // Every flag is checked before any request.
  const hours = parseInteger(flags.expiringWithin, '--expiring-within', 1) as number;
  const poolId = normalisePoolIdFlag(flags.pool);
  const text = flags.descriptionContains;
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
  const query = { status: 'ACTIVE', poolId, expiringWithinHours: hours, pageSize: MAX_PAGE_SIZE };
  const due = expiringWithin(hours, ctx.now().getTime());
  const matches = descriptionMatcher(text);
  // The whole selection is needed for one quote, so it is collected; a unit that shows up twice
  // (the list moved between pages) is still extended once.
  const units = new Map<string, Unit>();
  for await (const u of api.all('/units', shapes.unit, query)) {
    if (due(u) && matches(u) && !units.has(u.proxyRef)) units.set(u.proxyRef, u);
  }
  const selection = describeSelection(units.size, hours, poolId, text);
  if (units.size === 0) {
    // Nothing to renew is not an error: nothing is charged, and a script sees an empty list.
    await emit(
      ctx,
      showList([], {
        empty: escapeControl(
          `No active units expire within ${hours} h${poolId ? ` in pool ${poolId}` : ''}${text !== undefined ? ` with "${text}" in their description` : ''}; nothing was extended.`,
        ),
      }),
    );
    // A pool the catalogue does not hold is a typo worth a warning, as in `units list --pool`.
    const miss = poolId ? await poolMiss(api, poolId) : undefined;
    if (miss) ctx.warn(miss.message);
    return undefined;
  }
  const refs = [...units.keys()];
  let prices: Record<string, number> | undefined;
  if (period === undefined) {
    prices = (await api.get('/prices', shapes.prices)).prices;
    period = await ask!.select({
      message: escapeControl(`Extend ${selection} (${someRefs(refs)}) by`),
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
    what: `extending ${selection} (${someRefs(refs)}) by ${period}`,
    list: true,
    pools: byRef(units, (u) => u.poolId),
  };
}
