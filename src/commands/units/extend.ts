// `units extend REF... --period P`: the whole batch priced against the balance first, then each
// unit extended at most once (src/units/extend-safely.ts decides after ambiguous failures).
import { getPrices } from '../../api/endpoints.js';
import { emit, finished, show, type Result } from '../../kit/action.js';
import type { Input } from './extend.command.js';
import type { Context } from '../../context/index.js';
import { escapeControl } from '../../output/index.js';
import { printCharge, progressRenderer } from '../../output/progress.js';
import { settleBulk } from '../../units/bulk.js';
import { extend, quoteExtensionRun, type Fit } from '../../units/extension.js';
import { assertAffordable, assertWithinMaxSpend, describeQuote, parseUsd } from '../../units/quote.js';
import type { ExtendResult } from '../../units/types.js';
import { quoteView } from '../../units/view.js';
import { duplicateRefs, parsePeriod, parseRefs, type Period } from '../../units/validate.js';
import type { Prompter } from '../../context/prompt.js';
import { rerunCommand } from './rerun.js';
import { askForMissing, CHARGES, confirmCharge, PERIOD_LIST, periodChoices, printQuote } from './ask.js';
import { emitOutcomes } from './outcomes.js';
import { UsageError } from '../../errors.js';
import { money } from '../../output/index.js';
import { someRefs } from '../../units/select.js';

export interface ExtendOptions {
  refs: string[];
  period: Period;
  dryRun: boolean;
  /** The prompted flow: shown the price and asked before anything is charged. */
  confirm?: Prompter['confirm'] | undefined;
  /** The price list the prompt already read, so it is not fetched twice. */
  prices?: Record<string, number> | undefined;
  /** --max-spend: a larger total is refused (exit 2) before any extend request. */
  maxSpend?: number | undefined;
  /** How the batch is described in the quote, e.g. "extending 3 units expiring within 24 h by 7d". */
  what?: string | undefined;
  /** A selection: the results are always a list, even of one unit. */
  list?: boolean | undefined;
  /** Each unit's pool, when known: a pool failing upstream stops its remaining units (src/units/pool-stop.ts). */
  pools?: ReadonlyMap<string, string> | undefined;
  /** Each unit's expiry, when known: --fit keeps the soonest-expiring. */
  expiries?: ReadonlyMap<string, string | undefined> | undefined;
  /** --fit: over --max-spend, extend what it pays for (soonest-expiring first) instead of refusing. */
  fit?: boolean | undefined;
}

const view = {
  columns: [
    { header: 'ref', value: (r: ExtendResult) => r.proxyRef },
    { header: 'extended', value: (r: ExtendResult) => r.extended },
    { header: 'expires at', value: (r: ExtendResult) => r.expiresAt },
  ],
  // The extend answer's fields (spec 4.3), whatever else an answer carries.
  fields: ['proxyRef', 'expiresAt', 'extended'],
};

export async function extendUnits(given: ExtendOptions, ctx: Context): Promise<void> {
  const run = { api: await ctx.api(), ledger: await ctx.ledger(), signal: ctx.signal };
  const onFit = (fit: Fit) => {
    if (fit.left.length > 0)
      ctx.warn(
        `${fit.bound} pays for ${fit.refs.length} of the ${fit.refs.length + fit.left.length} units at ${money(fit.unitPrice)} each; left out (latest expiry): ${fit.left.join(', ')}`,
      );
  };
  if (given.dryRun) {
    const { plan, budget } = await quoteExtensionRun(run, given, { onFit });
    const q = plan.quote;
    const row = {
      dryRun: true,
      refs: [...plan.refs],
      period: given.period,
      ...q,
      affordable: q.balanceAfter >= 0,
      ...(budget ? { withinBudget: budget.ok, budget: budget.text } : {}),
    };
    await emit(ctx, show(row, quoteView(row)));
    assertWithinMaxSpend(q, given.maxSpend, plan.what);
    assertAffordable(q, plan.what);
    if (budget?.error) throw budget.error;
    ctx.notice(`dry run: ${describeQuote(q, plan.what)}; nothing was extended`);
    return;
  }
  const { report, elsewhere, charge } = await extend(run, given, {
    onFit,
    confirm: async (plan) => {
      if (given.confirm && !ctx.globals.yes) {
        printQuote(ctx, plan.quote, plan.what);
        await confirmCharge(given.confirm, 'extend', plan.quote);
      } else if (given.what) ctx.notice(describeQuote(plan.quote, plan.what));
    },
    onEvent: progressRenderer(ctx),
    onHeldElsewhere: (held) =>
      ctx.warn(
        `${someRefs(held)} ${held.length === 1 ? 'is' : 'are'} being extended by another proxyctl run at this moment; left to it, not extended again`,
      ),
  });
  // A selected unit another run extended in the meantime is renewed already: left out, said once.
  if (elsewhere.length > 0) {
    ctx.warn(
      `${someRefs(elsewhere)} ${elsewhere.length === 1 ? 'was' : 'were'} extended elsewhere since the selection (another run, a script or the panel); not extended again, nothing charged for ${elsewhere.length === 1 ? 'it' : 'them'}`,
    );
  }
  await emitOutcomes(ctx, report, { one: view, many: view }, (o) => ({ proxyRef: o.label, extended: false }), given.list);
  printCharge(ctx, charge);
  // After Ctrl-C: the units not started, as named refs with the same period (a selection's rest
  // is no longer a selection), so the printed command extends exactly those.
  settleBulk(ctx, report, 'extended', undefined, (rest) => rerunCommand(ctx, ['units', 'extend', ...rest, '--period', given.period]));
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  if (flags.expiringWithin !== undefined) {
    if (raw.length > 0)
      throw new UsageError('give unit references or --expiring-within, not both', {
        hint: 'proxyctl units extend --expiring-within 24 --period 7d (every active unit expiring within 24 h)',
      });
    const batch = await (await import('./expiring-selection.js')).selectExpiring(flags, ctx);
    if (batch) await extendUnits(batch, ctx);
    return finished(ctx);
  }
  const selecting =
    flags.pool !== undefined
      ? '--pool'
      : flags.customer !== undefined
        ? '--customer'
        : flags.descriptionContains !== undefined
          ? '--description-contains'
          : undefined;
  if (selecting) throw new UsageError(`${selecting} selects units with --expiring-within; with unit references, name the units only`);
  if (raw.length === 0)
    throw new UsageError('give at least one unit reference (e.g. PRX-123), or --expiring-within HOURS', {
      hint: 'e.g. proxyctl units extend PRX-123 --period 7d, or proxyctl units extend --expiring-within 24 --period 7d',
    });
  const maxSpend = parseUsd(flags.maxSpend, '--max-spend');
  const refs = parseRefs(raw);
  // Each extension is charged, so a ref typed twice is extended once, and the user is told which.
  const dupes = duplicateRefs(raw);
  if (dupes.length)
    ctx.warn(
      `${dupes.join(', ')} ${dupes.length > 1 ? 'were' : 'was'} named more than once; ${dupes.length > 1 ? 'each is' : 'it is'} extended once`,
    );
  const dryRun = flags.dryRun === true;
  const fit = flags.fit === true;
  if (flags.period !== undefined) {
    await extendUnits({ refs, period: parsePeriod(flags.period), dryRun, maxSpend, fit }, ctx);
    return finished(ctx);
  }
  // No --period: chosen in a terminal from the prices (then confirmed), else exit 2 naming it.
  const { select, confirm } = await askForMissing(ctx, '--period', {
    what: PERIOD_LIST,
    example: `proxyctl units extend ${refs.length === 1 ? refs[0] : 'REF...'} --period 7d`,
    cancelled: CHARGES.extend.cancelled,
  });
  const api = await ctx.api();
  const prices = await getPrices(api);
  const which = refs.length > 3 ? `${refs.length} units` : refs.join(', ');
  const period = await select({ message: escapeControl(`Extend ${which} by`), choices: periodChoices(prices, refs.length > 1) });
  await extendUnits({ refs, period, dryRun, confirm, prices, maxSpend, fit }, ctx);
  return finished(ctx);
}
