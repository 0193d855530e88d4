// `units create`: price check against the balance first, then each unit bought with its own
// derived idempotency key (src/units/idempotency.ts), several at a time, never twice.
import { emit, finished, show, showList, type Result } from '../../kit/action.js';
import type { Input } from './create.command.js';
import type { Context } from '../../context/index.js';
import { ApiError, PartialFailureError, UsageError, type CliError } from '../../errors.js';
import type { View } from '../../output/index.js';
import { withConnFormat } from '../../output/conn.js';
import { printCharge, printKeep, progressRenderer } from '../../output/progress.js';
import { itemOutcomes, settleBulk, type BulkReport } from '../../units/bulk.js';
import { describePurchase, purchase, quotePurchase } from '../../units/purchase.js';
import { isComplete, parseCreateFlags, type CreateInput, type PartialCreateInput } from '../../units/create-input.js';
import { inFlight } from '../../in-flight.js';
import { assertAffordable, describeQuote, planPurchase, type PurchasePlan } from '../../units/quote.js';
import type { Unit } from '../../units/types.js';
import { changedUnitView, quoteView, unitDetailView, unitView } from '../../units/view.js';
import { catalogueSeen, remember, unitsSeen } from '../../kit/remember.js';
import { countryCode } from '../../kit/country.js';
import { cheapestPoolAt, describePick, type Place } from '../../units/cheapest.js';
import { emitOutcomes } from './outcomes.js';
import { rerunCommand } from './rerun.js';
import { customerOf, withCustomer } from '../../ledger/customer.js';

/** How a purchase prints: one unit in detail, several as a list (with --conn-format's lines). */
interface Views {
  one: View<Unit>;
  many: View<Unit>;
}

/**
 * The command that buys what `opts` buys with `key`: what a guided run prints to resume, since
 * "the same command" (`units create`, with its answers) would ask everything again. A password is
 * never printed (the placeholder says to give it again); a customer is given back as --customer.
 */
export function resumeCommand(ctx: Context, opts: CreateInput, key: string): string {
  const { poolId, period, protocol, credentials, allowedIps } = opts.body;
  const words = ['units', 'create', '--pool', poolId, '--period', period];
  if (protocol !== undefined) words.push('--protocol', protocol);
  if (credentials) words.push('--username', credentials.username, '--password', '<the same password>');
  for (const ip of allowedIps ?? []) words.push('--allow-ip', ip);
  if (opts.count !== 1) words.push('--count', String(opts.count));
  const customer = customerOf(opts.description);
  if (customer !== undefined) words.push('--customer', customer);
  const rest =
    customer === undefined ? opts.description : withCustomer(opts.description, customer).slice(`customer=${customer}`.length).trim();
  if (rest) words.push('--description', rest);
  return rerunCommand(ctx, [...words, '--idempotency-key', key]);
}

/**
 * The one purchase path (src/units/purchase.ts): `plan` is the guided flow's (already confirmed)
 * quote, else made there; `guided` makes the resume hints whole commands.
 */
export async function createUnits(opts: CreateInput, ctx: Context, views: Views, plan?: PurchasePlan, guided = false): Promise<void> {
  const api = await ctx.api();
  const ledger = await ctx.ledger();
  if (opts.dryRun) {
    const { plan: p, budget } = await quotePurchase({ api, ledger }, opts);
    await remember(ctx, catalogueSeen([p.pool]));
    const q = p.quote;
    if (p.earlier > 0)
      ctx.notice(`${p.earlier} of ${opts.count} were bought earlier with this idempotency key; they are replayed at no charge`);
    const row = {
      dryRun: true,
      poolId: opts.body.poolId,
      period: opts.body.period,
      protocol: opts.body.protocol ?? 'socks5',
      ...q,
      affordable: q.balanceAfter >= 0,
      ...(budget ? { withinBudget: budget.ok, budget: budget.text } : {}),
    };
    await emit(ctx, show(row, quoteView(row)));
    const what = describePurchase(opts, p.toBuy);
    assertAffordable(q, what);
    if (budget?.error) throw budget.error;
    ctx.notice(`dry run: ${describeQuote(q, what)}; nothing was bought`);
    return;
  }
  // Resuming a batch: items an earlier run with this key bought are replayed free, so only the
  // rest has to be affordable.
  if (!plan) {
    plan = await planPurchase(api, opts);
    await remember(ctx, catalogueSeen([plan.pool]));
  }
  const used = plan;
  if (used.earlier > 0)
    ctx.notice(`${used.earlier} of ${opts.count} were bought earlier with this idempotency key; they are replayed at no charge`);
  // -o conn into a file or a pipe: each unit's line is written as its unit is bought, so a long
  // batch's file fills as it goes and a run cut short has every line it paid for; the lines are
  // then not printed again at the end. On a terminal they follow the progress bar, as before.
  const streaming = ctx.globals.output === 'conn' && !ctx.io.stdoutIsTTY;
  let written: Promise<unknown> = Promise.resolve();
  const { baseKey, batch, charge } = await purchase({ api, ledger, signal: ctx.signal }, opts, {
    plan,
    ...(streaming
      ? {
          onUnit: (u: Unit) => {
            written = written.then(() => emit(ctx, showList([u], views.many)));
          },
        }
      : {}),
    // Not hidden by -q: without it a batch cut short (killed, crashed) cannot be resumed safely.
    // Said once the budget has allowed the run, so a refused run leaves no key to resume.
    onStart: (key) => {
      if (opts.count > 1 && !opts.baseKey)
        printKeep(
          ctx,
          guided
            ? `idempotency key ${key} (if this is interrupted, run ${resumeCommand(ctx, opts, key)} to resume without buying twice)`
            : `idempotency key ${key} (if this is interrupted, re-run with --idempotency-key ${key} to resume without buying twice)`,
        );
    },
    describe: (u) => (u as Unit).proxyRef,
    onEvent: progressRenderer(ctx),
    onBought: (ref, key) => inFlight.bought(ref, key),
  });
  const { report, keys, replayed, breaker, untagged } = batch;
  // Label successes with their new ref in the summary.
  for (const o of report.outcomes) if (o.ok) o.label = o.value.proxyRef;
  await remember(ctx, unitsSeen(report.outcomes.flatMap((o) => (o.ok ? [o.value] : []))));

  if (streaming) await written;
  else await emitOutcomes(ctx, report, views, (o) => ({ index: o.index, idempotencyKey: keys[o.index] }));
  if (replayed.size !== used.earlier)
    ctx.notice(`${replayed.size} of the ${opts.count} were bought earlier with this idempotency key: replayed, not charged again`);
  printCharge(ctx, charge);
  if (untagged.size > 0) {
    const refs = [...untagged.keys()];
    ctx.warn(
      `bought, but the description could not be written on ${refs.join(', ')} (${[...untagged.values()][0]}); ${
        opts.count > 1
          ? guided
            ? `run ${resumeCommand(ctx, opts, baseKey)}`
            : `re-run the same command with --idempotency-key ${baseKey}`
          : `run proxyctl units modify ${refs[0]} --description …`
      } to write it (nothing is bought again)`,
    );
  }
  const failed = report.outcomes.some((o) => !o.ok);
  if ((failed || report.interrupted || report.stopped) && opts.count > 1)
    printKeep(
      ctx,
      guided
        ? `to retry the rest without buying twice: ${resumeCommand(ctx, opts, baseKey)}`
        : `to retry the rest without buying twice: add --idempotency-key ${baseKey} to the same command`,
    );
  settleBulk(ctx, report, 'created', (succeeded) => upstreamStopError(opts.body.poolId, breaker.refunded, succeeded, report));
}

function upstreamStopError(poolId: string, refunded: number, succeeded: number, report: BulkReport<unknown>): CliError {
  const message = `pool ${poolId} is failing upstream; stopped; nothing charged for the ${refunded} failed item${refunded === 1 ? '' : 's'}`;
  if (succeeded > 0) return new PartialFailureError(message, itemOutcomes(report));
  return new ApiError(
    { status: 503, answered: false, code: 'pool_failing_upstream', message },
    'try another pool (proxyctl pools), or this one again later',
  );
}

/** --country [--state] [--provider]: where to buy when no pool is named; exit 2 with --pool. */
function parsePlace(flags: Input['flags']): Place | undefined {
  const narrowing = flags.state !== undefined ? '--state' : flags.provider !== undefined ? '--provider' : undefined;
  if (flags.country === undefined) {
    if (narrowing) throw new UsageError(`${narrowing} narrows --country: give --country CC too (e.g. --country US ${narrowing} …)`);
    return undefined;
  }
  if (flags.pool !== undefined)
    throw new UsageError('--pool names the pool; --country picks one: give one or the other', {
      hint: `proxyctl units create --pool ${flags.pool} …, or proxyctl units create --country ${flags.country} …`,
    });
  const nonEmpty = (v: string | undefined, flag: string) => {
    if (v !== undefined && v.trim() === '') throw new UsageError(`${flag} needs a value`);
    return v?.trim();
  };
  return {
    country: countryCode(flags.country) as string,
    state: nonEmpty(flags.state, '--state'),
    provider: nonEmpty(flags.provider, '--provider'),
  };
}

/** The flags' purchase with the pool --country picked, said on stderr before anything is bought. */
async function atCheapestPool(ctx: Context, parsed: PartialCreateInput, period: string, place: Place): Promise<CreateInput> {
  const api = await ctx.api();
  const pick = await cheapestPoolAt(api, place, period);
  await remember(ctx, catalogueSeen(pick.pools));
  ctx.notice(`buying from ${describePick(pick, place, period)}`);
  return { ...parsed, body: { ...parsed.body, period, poolId: pick.pool.poolId } };
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const parsed = parseCreateFlags(flags);
  const place = parsePlace(flags);
  const views = {
    one: withConnFormat(ctx, changedUnitView(unitDetailView), flags.connFormat),
    many: withConnFormat(ctx, changedUnitView(unitView), flags.connFormat),
  };
  // Refused here, before the pool and balance are read, rather than when the quote is printed.
  if (parsed.dryRun && ctx.globals.output === 'conn') {
    throw new UsageError('--dry-run prints a quote, not units: -o conn is not available with it (use table, json or csv)');
  }
  if (place && parsed.body.period !== undefined) {
    await createUnits(await atCheapestPool(ctx, parsed, parsed.body.period, place), ctx, views);
    return finished(ctx);
  }
  if (isComplete(parsed)) {
    await createUnits(parsed, ctx, views);
    return finished(ctx);
  }
  if (!ctx.canPrompt) {
    throw new UsageError(place ? '--period is required' : '--pool and --period are required', {
      hint: place
        ? `e.g. proxyctl units create --country ${place.country} --period 7d (in a terminal, leave it out to choose it)`
        : 'e.g. proxyctl units create --pool US-12 --period 7d (in a terminal, leave them out for a guided choice)',
    });
  }
  // The guided flow answers with the same (validated) input and the same quote, confirmed.
  const { guidedCreate } = await import('./create-guided.js');
  const chosen = await guidedCreate(ctx, flags, parsed, place);
  await createUnits(chosen.input, ctx, views, chosen.plan, true);
  return finished(ctx);
}
