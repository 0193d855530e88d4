// `units extend REF... --period P`: the whole batch priced against the balance first, then each
// unit extended at most once (src/units/extend-safely.ts decides after ambiguous failures).
import { emit, finished, show, type Result } from '../../kit/action.js';
import type { Input } from './extend.command.js';
import type { Context } from '../../context/index.js';
import { escapeControl } from '../../output/index.js';
import { printCharge, progressRenderer } from '../../output/progress.js';
import { settleBulk } from '../../units/bulk.js';
import { settleCharge } from '../../units/charge.js';
import { extendBatch, extensionSpend } from '../../units/extend-safely.js';
import { assertAffordable, assertWithinMaxSpend, describeQuote, parseUsd, quoteExtension } from '../../units/quote.js';
import type { ExtendResult } from '../../units/types.js';
import { quoteView } from '../../units/view.js';
import { duplicateRefs, parsePeriod, parseRefs, type Period } from '../../units/validate.js';
import * as shapes from '../../api/shapes.js';
import type { Prompter } from '../../context/prompt.js';
import { rerunCommand } from './rerun.js';
import { askForMissing, CHARGES, confirmCharge, PERIOD_LIST, periodChoices, printQuote } from './ask.js';
import { emitOutcomes } from './outcomes.js';
import { ConflictError, UsageError } from '../../errors.js';
import { noteBalance } from '../../ledger/index.js';
import { money } from '../../output/index.js';
import { cents, priceFor } from '../../units/quote.js';
import { someRefs } from '../../units/select.js';
import { budgetVerdict } from './budget-verdict.js';

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
  const api = await ctx.api();
  const ledger = await ctx.ledger();
  const opts = given.fit ? await fitted(ctx, given) : given;
  const q = await quoteExtension(api, opts.period, opts.refs.length, opts.prices);
  await noteBalance(ledger, q.balanceUsd);
  const spend = extensionSpend(q, opts.period, opts.refs, opts.pools);
  const what = opts.what ?? `extending ${opts.refs.length} unit${opts.refs.length > 1 ? 's' : ''} by ${opts.period}`;
  if (opts.dryRun) {
    const budget = await budgetVerdict(ledger, spend);
    const row = {
      dryRun: true,
      refs: opts.refs,
      period: opts.period,
      ...q,
      affordable: q.balanceAfter >= 0,
      ...(budget ? { withinBudget: budget.ok, budget: budget.text } : {}),
    };
    await emit(ctx, show(row, quoteView(row)));
    assertWithinMaxSpend(q, opts.maxSpend, what);
    assertAffordable(q, what);
    if (budget?.error) throw budget.error;
    ctx.notice(`dry run: ${describeQuote(q, what)}; nothing was extended`);
    return;
  }
  assertWithinMaxSpend(q, opts.maxSpend, what);
  assertAffordable(q, what);
  if (opts.confirm && !ctx.globals.yes) {
    printQuote(ctx, q, what);
    await confirmCharge(opts.confirm, 'extend', q);
  } else if (opts.what) ctx.notice(describeQuote(q, what));
  // Units another run is extending right now are left to it: two overlapping renewals never
  // extend one unit twice (src/ledger/budget.ts holds the refs across processes).
  const report = await extendBatch(ctx, api, {
    refs: opts.refs,
    period: opts.period,
    quote: q,
    ledger,
    pools: opts.pools,
    expiries: opts.expiries,
    onEvent: progressRenderer(ctx),
    onHeldElsewhere: (elsewhere) =>
      ctx.warn(
        `${someRefs(elsewhere)} ${elsewhere.length === 1 ? 'is' : 'are'} being extended by another proxyctl run at this moment; left to it, not extended again`,
      ),
  });
  // A selected unit another run extended in the meantime is renewed already: left out, said once.
  const elsewhere = report.outcomes.filter((o) => !o.ok && o.error instanceof ConflictError && o.error.code === 'extended_elsewhere');
  if (elsewhere.length > 0) {
    report.outcomes = report.outcomes.filter((o) => !elsewhere.includes(o));
    report.total -= elsewhere.length;
    const refs = elsewhere.map((o) => o.label);
    ctx.warn(
      `${someRefs(refs)} ${refs.length === 1 ? 'was' : 'were'} extended elsewhere since the selection (another run, a script or the panel); not extended again, nothing charged for ${refs.length === 1 ? 'it' : 'them'}`,
    );
  }
  await emitOutcomes(ctx, report, { one: view, many: view }, (o) => ({ proxyRef: o.label, extended: false }), opts.list);
  const charge = await settleCharge(api, q.unitPrice, report.outcomes.filter((o) => o.ok).length);
  printCharge(ctx, charge);
  await noteBalance(ledger, charge?.balanceUsd);
  // After Ctrl-C: the units not started, as named refs with the same period (a selection's rest
  // is no longer a selection), so the printed command extends exactly those.
  settleBulk(ctx, report, 'extended', undefined, (rest) => rerunCommand(ctx, ['units', 'extend', ...rest, '--period', opts.period]));
}

/**
 * --fit: the units --max-spend pays for at today's price, soonest-expiring first (in the order
 * given when expiries are not known), and the rest named on stderr as left out.
 */
async function fitted(ctx: Context, opts: ExtendOptions): Promise<ExtendOptions> {
  if (opts.maxSpend === undefined) throw new UsageError('--fit fits the batch into --max-spend: give --max-spend USD too');
  const api = await ctx.api();
  const prices = opts.prices ?? (await api.get('/prices', shapes.prices)).prices;
  const unit = priceFor(prices, opts.period, 'an extension');
  const affordable = unit > 0 ? Math.floor(cents(opts.maxSpend) / cents(unit)) : opts.refs.length;
  const when = (r: string) => Date.parse(opts.expiries?.get(r) ?? '') || Number.POSITIVE_INFINITY;
  const order = opts.expiries ? [...opts.refs].sort((a, b) => when(a) - when(b)) : opts.refs;
  const refs = order.slice(0, affordable);
  const left = order.slice(affordable);
  if (left.length > 0) {
    ctx.warn(
      `--max-spend ${money(opts.maxSpend)} pays for ${refs.length} of the ${order.length} units at ${money(unit)} each; left out (latest expiry): ${left.join(', ')}`,
    );
  }
  if (refs.length === 0)
    throw new UsageError(`--max-spend ${money(opts.maxSpend)} does not pay for one ${opts.period} extension (${money(unit)})`, {
      code: 'max_spend_exceeded',
    });
  return {
    ...opts,
    refs,
    prices,
    what: opts.what?.replace(/^extending \d+ units?/, `extending ${refs.length} unit${refs.length === 1 ? '' : 's'}`),
  };
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
  if (fit && maxSpend === undefined) throw new UsageError('--fit fits the batch into --max-spend: give --max-spend USD too');
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
  const { prices } = await api.get('/prices', shapes.prices);
  const which = refs.length > 3 ? `${refs.length} units` : refs.join(', ');
  const period = await select({ message: escapeControl(`Extend ${which} by`), choices: periodChoices(prices, refs.length > 1) });
  await extendUnits({ refs, period, dryRun, confirm, prices, maxSpend, fit }, ctx);
  return finished(ctx);
}
