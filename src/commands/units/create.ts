// `units create`: price check against the balance first, then each unit bought with its own
// derived idempotency key (src/units/idempotency.ts), several at a time, never twice.
import { finished } from '../action.js';
import type { Input } from './create.command.js';
import type { Context } from '../../context/index.js';
import type { ApiClient } from '../../api/client.js';
import { ApiError, PartialFailureError, UsageError, type CliError } from '../../errors.js';
import { assertFormats, printObject } from '../../output/index.js';
import { itemOutcomes, printOutcomes, runBulk, settleBulk, UpstreamBreaker, type BulkReport } from '../../units/bulk.js';
import { countBoughtEarlier, createSafely, rememberPurchase } from '../../units/create-safely.js';
import { newBaseKey } from '../../units/idempotency.js';
import { inFlight } from '../../in-flight.js';
import { assertAffordable, describeQuote, priceFor, quote, type Quote } from '../../units/quote.js';
import type { CreateBody, Unit } from '../../units/types.js';
import {
  checkAllowIpsFor, MAX_COUNT, normaliseAllowIps, parseCredentials, parseIdempotencyKey, parsePeriod, parseProtocol,
} from '../../units/validate.js';
import { parseInteger } from '../options.js';
import { unitDetailView, unitView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';

type Flags = Input['flags'];

export interface CreateOptions {
  body: CreateBody;
  count: number;
  baseKey: string | undefined;
  dryRun: boolean;
}

interface PoolDetail {
  poolId: string;
  available?: boolean;
  prices?: Record<string, number>;
}

/** Validates everything that does not depend on the guided choice; pool/period may still be missing. */
export function parseCreateFlags(f: Flags): Omit<CreateOptions, 'body'> & { body: Partial<CreateBody> } {
  const protocol = f.protocol === undefined ? undefined : parseProtocol(f.protocol);
  const ips = normaliseAllowIps(f.allowIp);
  const allowedIps = checkAllowIpsFor(protocol ?? 'socks5', ips, 'units create');
  const credentials = parseCredentials(f.username, f.password);
  if (credentials && protocol === 'http_noauth') throw new UsageError('http_noauth units have no credentials: drop --username/--password');
  const body: Partial<CreateBody> = {
    ...(f.pool !== undefined ? { poolId: f.pool.trim() } : {}),
    ...(f.period !== undefined ? { period: parsePeriod(f.period) } : {}),
    ...(protocol ? { protocol } : {}),
    ...(credentials ? { credentials } : {}),
    ...(allowedIps ? { allowedIps } : {}),
  };
  if (body.poolId === '') throw new UsageError('--pool needs a pool id (see proxyctl pools)');
  return { body, count: parseInteger(f.count, '--count', 1, MAX_COUNT) ?? 1, baseKey: parseIdempotencyKey(f.idempotencyKey), dryRun: f.dryRun === true };
}

export async function priceQuote(api: ApiClient, body: CreateBody, count: number): Promise<Quote> {
  const pool = await api.get<PoolDetail>(`/pools/${encodeURIComponent(body.poolId)}`, shapes.pool);
  if (pool.available === false) {
    throw new ApiError({ status: 404, code: 'pool_not_available', message: `pool ${body.poolId} is not available right now` }, 'pick another pool: proxyctl pools --country …');
  }
  return quote(api, priceFor(pool.prices, body.period, `pool ${body.poolId}`), count);
}

export async function run(opts: CreateOptions, ctx: Context, q?: Quote): Promise<void> {
  const api = await ctx.api();
  // Resuming a batch: items an earlier run with this key bought are replayed free, so only the
  // rest has to be affordable.
  const earlier = opts.baseKey ? await countBoughtEarlier(api, opts.baseKey, opts.count) : 0;
  if (earlier > 0) ctx.notice(`${earlier} of ${opts.count} were bought earlier with this idempotency key; they are replayed at no charge`);
  const toBuy = opts.count - earlier;
  const what = `${toBuy} × ${opts.body.period} unit${toBuy === 1 ? '' : 's'} in ${opts.body.poolId}`;
  q ??= await priceQuote(api, opts.body, toBuy);
  if (opts.dryRun) {
    await printObject(ctx, { dryRun: true, poolId: opts.body.poolId, period: opts.body.period, protocol: opts.body.protocol ?? 'socks5', ...q, affordable: q.balanceAfter >= 0 });
    assertAffordable(q, what);
    ctx.notice(`dry run: ${describeQuote(q, what)}; nothing was bought`);
    return;
  }
  assertAffordable(q, what);
  const baseKey = opts.baseKey ?? newBaseKey();
  if (opts.count > 1 && !opts.baseKey) ctx.notice(`idempotency key ${baseKey} (if this is interrupted, re-run with --idempotency-key ${baseKey} to resume without buying twice)`);

  const keys: string[] = [];
  const indices = Array.from({ length: opts.count }, (_, i) => i);
  const breaker = new UpstreamBreaker();
  // Items still retrying when the breaker trips stop at their next attempt, as on Ctrl-C.
  const signal = AbortSignal.any([ctx.signal, breaker.signal]);
  const report = await runBulk(
    ctx,
    indices,
    { verb: 'created', label: (i) => `#${i + 1}`, describe: (u) => (u as Unit).proxyRef, stop: breaker.signal },
    async (i) => {
      const out = await createSafely(api, opts.body as CreateBody, { baseKey, index: i, signal });
      keys[i] = out.idempotencyKey;
      breaker.record(out.ok, out.ok ? undefined : out.error);
      if (!out.ok) throw out.error;
      inFlight.bought(out.unit.proxyRef, baseKey);
      await rememberPurchase(api, baseKey, i, out.unit.proxyRef);
      return out.unit;
    },
  );
  // Label successes with their new ref in the summary.
  for (const o of report.outcomes) if (o.ok) o.label = o.value.proxyRef;

  await printOutcomes(ctx, report, { one: unitDetailView, many: unitView }, (o) => ({ index: o.index, idempotencyKey: keys[o.index] }));
  const failed = report.outcomes.some((o) => !o.ok);
  if ((failed || report.interrupted || report.stopped) && opts.count > 1) ctx.notice(`to retry the rest without buying twice: add --idempotency-key ${baseKey} to the same command`);
  settleBulk(ctx, report, 'created', (succeeded) => upstreamStopError(opts.body.poolId, breaker.refunded, succeeded, report));
}

function upstreamStopError(poolId: string, refunded: number, succeeded: number, report: BulkReport<unknown>): CliError {
  const message = `pool ${poolId} is failing upstream; stopped; nothing charged for the ${refunded} failed item${refunded === 1 ? '' : 's'}`;
  if (succeeded > 0) return new PartialFailureError(message, itemOutcomes(report));
  return new ApiError({ status: 503, code: 'pool_failing_upstream', message }, 'try another pool (proxyctl pools), or this one again later');
}

export default async function handler({ flags, ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
  const parsed = parseCreateFlags(flags);
  // Refused here, before the pool and balance are read, rather than when the quote is printed.
  if (parsed.dryRun && ctx.globals.output === 'conn') {
    throw new UsageError('--dry-run prints a quote, not units: -o conn is not available with it (use table, json or csv)');
  }
  if (parsed.body.poolId !== undefined && parsed.body.period !== undefined) {
    await run(parsed as CreateOptions, ctx);
    return finished(ctx);
  }
  if (!ctx.canPrompt) {
    throw new UsageError('--pool and --period are required', { hint: 'e.g. proxyctl units create --pool US-12 --period 7d (in a terminal, leave them out for a guided choice)' });
  }
  const { guidedCreate } = await import('./create-guided.js');
  const chosen = await guidedCreate(ctx, parsed);
  await run(chosen.opts, ctx, chosen.quote);
  return finished(ctx);
}
