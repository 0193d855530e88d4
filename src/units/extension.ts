// The money path of an extension, the one every front door calls: `units extend` (named refs or a
// renewal selection), the agent's extend_units and the SDK's extendUnitSafely. In order: each
// unit's pool where the profile's countries need it, --fit under the least of its bounds, the
// quote, the user's --max-spend, the balance, the front door's own checks and confirmation, then
// the profile's policy and daily budget as they are at this moment, the hold on the refs, each
// unit extended at most once (extendBatch), the ledger, and the charge told from what was really
// extended.
import { getPrices, getUnit } from '../api/endpoints.js';
import { money } from '../output/index.js';
import type * as shapes from '../api/shapes.js';
import { InterruptedError, UsageError } from '../errors.js';
import { dailyBudgetLeft, noteBalance, policyNow, type Spend } from '../ledger/index.js';
import { budgetVerdict, type BudgetVerdict } from '../ledger/verdict.js';
import { runBulk, type BulkOptions, type BulkReport } from './bulk.js';
import { settleCharge, type Charge } from './charge.js';
import { extendBatch, extensionSpend } from './extend-safely.js';
import type { PayingRun } from './purchase.js';
import { assertAffordable, assertWithinMaxSpend, cents, priceFor, quoteExtension, type Quote } from './quote.js';
import type { ExtendResult } from './types.js';
import { ConflictError } from '../errors.js';

export interface ExtensionInput {
  refs: readonly string[];
  period: string;
  /** The price list already read (a prompt showed it), so it is not fetched twice. */
  prices?: shapes.Prices | undefined;
  /** --max-spend: a larger total is refused (exit 2) before any extend request. */
  maxSpend?: number | undefined;
  /** --fit: extend what the least of the bounds pays for (soonest-expiring first) instead of refusing. */
  fit?: boolean | undefined;
  /** Each unit's pool, when known; read where the profile's countries need it. */
  pools?: ReadonlyMap<string, string> | undefined;
  /** Each unit's expiry when it was selected: --fit keeps the soonest, and one extended elsewhere since is not extended again. */
  expiries?: ReadonlyMap<string, string | undefined> | undefined;
  /** How the batch is described in messages, e.g. "extending 3 units expiring within 24 h by 7d". */
  what?: string | undefined;
}

/** The bound --fit fitted the batch under, and what it left out. */
export interface Fit {
  refs: string[];
  left: string[];
  unitPrice: number;
  /** e.g. "--max-spend 100.00 USD" or "the daily budget (12.00 USD left of max-spend-per-day 50.00 USD)". */
  bound: string;
  boundUsd: number;
}

export interface ExtensionPlan {
  input: ExtensionInput & { pools: ReadonlyMap<string, string> | undefined };
  refs: readonly string[];
  quote: Quote;
  what: string;
  spend: Spend;
  fit: Fit | undefined;
}

export interface ExtensionSteps {
  /** Told how --fit fitted the batch, before the quote. */
  onFit?: ((fit: Fit) => void) | undefined;
  /** The front door's own checks on the quote (the agent server's expiry, price, --budget); throw to refuse. */
  check?: ((quote: Quote) => void) | undefined;
  /** Asked once every check has passed (the CLI's prompt); throws to decline. */
  confirm?: ((plan: ExtensionPlan) => Promise<void>) | undefined;
  onEvent?: BulkOptions<string>['onEvent'];
  onHeldElsewhere?: ((refs: string[]) => void) | undefined;
}

export interface Extension {
  plan: ExtensionPlan;
  report: BulkReport<ExtendResult>;
  /** Units extended elsewhere since they were selected: taken out of the report, not charged. */
  elsewhere: string[];
  /** Units another run was extending at that moment: left to it. */
  heldElsewhere: string[];
  charge: Charge | undefined;
}

const plural = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;

/** The pools of units the caller did not know, read when the profile's countries have to be checked. */
async function poolsFor(run: PayingRun, input: ExtensionInput): Promise<ReadonlyMap<string, string> | undefined> {
  const known = input.pools;
  if (!(await policyNow(run.ledger))?.allowedCountries) return known;
  const missing = input.refs.filter((r) => !known?.has(r));
  if (missing.length === 0) return known;
  const read = await runBulk(run, missing, { verb: 'read', label: (r) => r }, (ref) => getUnit(run.api, ref));
  for (const o of read.outcomes) if (!o.ok) throw o.error;
  if (read.pending.length > 0) throw new InterruptedError('cancelled before every unit was read; nothing was extended');
  const pools = new Map(known ?? []);
  for (const o of read.outcomes) if (o.ok && o.value.poolId) pools.set(o.label, o.value.poolId);
  return pools;
}

/**
 * --fit: the units the least of --max-spend, max-spend-per-run and what the daily budget has left
 * pays for at today's price, soonest-expiring first. Units named by ref come without their expiry:
 * when some must be left out, each is read first (GET), so the ones kept are the soonest-expiring
 * as promised and said, not the first typed.
 */
async function fitExtension(run: PayingRun, input: ExtensionInput, prices: shapes.Prices): Promise<Fit> {
  const unitPrice = priceFor(prices, input.period, 'an extension');
  const policy = await policyNow(run.ledger);
  const bounds: { usd: number; says: string }[] = [];
  if (input.maxSpend !== undefined) bounds.push({ usd: input.maxSpend, says: `--max-spend ${money(input.maxSpend)}` });
  if (policy?.maxSpendPerRun !== undefined)
    bounds.push({ usd: policy.maxSpendPerRun, says: `max-spend-per-run ${money(policy.maxSpendPerRun)}` });
  const left = await dailyBudgetLeft(run.ledger);
  if (left !== undefined && policy?.maxSpendPerDay !== undefined)
    bounds.push({ usd: left, says: `the daily budget (${money(left)} left of max-spend-per-day ${money(policy.maxSpendPerDay)})` });
  const bound = bounds.reduce((a, b) => (cents(b.usd) < cents(a.usd) ? b : a));
  const affordable = unitPrice > 0 ? Math.floor(cents(bound.usd) / cents(unitPrice)) : input.refs.length;
  const expiries =
    input.expiries ??
    (affordable < input.refs.length
      ? new Map(await Promise.all(input.refs.map(async (r) => [r, (await getUnit(run.api, r)).expiresAt] as const)))
      : undefined);
  const when = (r: string) => Date.parse(expiries?.get(r) ?? '') || Number.POSITIVE_INFINITY;
  const order = expiries ? [...input.refs].sort((a, b) => when(a) - when(b)) : [...input.refs];
  const fit = { refs: order.slice(0, affordable), left: order.slice(affordable), unitPrice, bound: bound.says, boundUsd: bound.usd };
  if (fit.refs.length === 0)
    throw new UsageError(`${bound.says} does not pay for one ${input.period} extension (${money(unitPrice)}); nothing was extended`, {
      code: 'max_spend_exceeded',
    });
  return fit;
}

/** The batch as it will be charged: pools where needed, fitted, quoted against the balance. */
export async function planExtension(
  run: PayingRun,
  given: ExtensionInput,
  steps: Pick<ExtensionSteps, 'onFit'> = {},
): Promise<ExtensionPlan> {
  const policy = await policyNow(run.ledger);
  if (given.fit && given.maxSpend === undefined && policy?.maxSpendPerRun === undefined && policy?.maxSpendPerDay === undefined)
    throw new UsageError("--fit fits the batch under --max-spend or the profile's budget: give --max-spend USD too", {
      hint: 'or set a budget: proxyctl config set max-spend-per-run 100',
    });
  const pools = await poolsFor(run, given);
  let input = { ...given, pools };
  let fit: Fit | undefined;
  if (input.fit) {
    const prices = input.prices ?? (await getPrices(run.api));
    fit = await fitExtension(run, input, prices);
    steps.onFit?.(fit);
    input = {
      ...input,
      prices,
      refs: fit.refs,
      what: input.what?.replace(/^extending \d+ units?/, `extending ${plural(fit.refs.length)}`),
    };
  }
  const quote = await quoteExtension(run.api, input.period, input.refs.length, input.prices);
  await noteBalance(run.ledger, quote.balanceUsd);
  const what = input.what ?? `extending ${plural(input.refs.length)} by ${input.period}`;
  // With --fit the batch already fits the bound; the user's ceiling is still checked as given.
  return { input, refs: input.refs, quote, what, spend: extensionSpend(quote, input.period, input.refs, pools), fit };
}

/** A dry run: the plan and, when the profile has rules, their verdict now. */
export async function quoteExtensionRun(
  run: PayingRun,
  input: ExtensionInput,
  steps: Pick<ExtensionSteps, 'onFit'> = {},
): Promise<{ plan: ExtensionPlan; budget: BudgetVerdict | undefined }> {
  const plan = await planExtension(run, input, steps);
  return { plan, budget: await budgetVerdict(run.ledger, plan.spend) };
}

export async function extend(run: PayingRun, given: ExtensionInput, steps: ExtensionSteps = {}): Promise<Extension> {
  const plan = await planExtension(run, given, steps);
  const { quote: q, input } = plan;
  assertWithinMaxSpend(q, input.maxSpend, plan.what);
  assertAffordable(q, plan.what);
  steps.check?.(q);
  await steps.confirm?.(plan);
  let heldElsewhere: string[] = [];
  // Units another run is extending right now are left to it: two overlapping renewals never
  // extend one unit twice (src/ledger/budget.ts holds the refs across processes).
  const report = await extendBatch(run, run.api, {
    refs: input.refs,
    period: input.period,
    quote: q,
    ledger: run.ledger,
    pools: input.pools,
    expiries: input.expiries,
    ...(steps.onEvent ? { onEvent: steps.onEvent } : {}),
    onHeldElsewhere: (refs) => {
      heldElsewhere = refs;
      steps.onHeldElsewhere?.(refs);
    },
  });
  // A selected unit another run extended in the meantime is renewed already: left out, not charged.
  const gone = report.outcomes.filter((o) => !o.ok && o.error instanceof ConflictError && o.error.code === 'extended_elsewhere');
  if (gone.length > 0) {
    report.outcomes = report.outcomes.filter((o) => !gone.includes(o));
    report.total -= gone.length;
  }
  const charge = await settleCharge(run.api, q.unitPrice, report.outcomes.filter((o) => o.ok).length);
  await noteBalance(run.ledger, charge?.balanceUsd);
  return { plan, report, elsewhere: gone.map((o) => o.label), heldElsewhere, charge };
}
