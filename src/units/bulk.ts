// Bulk work over many items: bounded concurrency (the API client's rate budget paces the actual
// requests, so steady-state bulk work waits instead of drawing 429s), progress reported as events
// (src/output/progress.ts draws them), Ctrl-C that stops new items but lets started ones finish,
// and per-item outcomes for the summary.
import { inFlight } from '../in-flight.js';
import type { BaseContext as Context } from '../globals.js';
import {
  ApiError,
  CliError,
  InterruptedError,
  LedgerUnavailableError,
  NotAppliedError,
  PartialFailureError,
  notAppliedObject,
  type ItemOutcome,
} from '../errors.js';
import { printBulkSummary, type ProgressEvent } from '../output/progress.js';

export const DEFAULT_CONCURRENCY = 4;

export type Outcome<R> = { index: number; label: string; ok: true; value: R } | { index: number; label: string; ok: false; error: unknown };

export interface BulkReport<R> {
  /** Items that were started, in input order. */
  outcomes: Outcome<R>[];
  total: number;
  notStarted: number;
  /** The labels of the items not started, in input order (what a re-run still has to do). */
  pending: string[];
  interrupted: boolean;
  /** Stopped early by `BulkOptions.stop` (not by Ctrl-C). */
  stopped: boolean;
  /** What stopped it, when the stop signal gave a reason (e.g. the shared ledger lost: LedgerUnavailableError). */
  stopReason?: unknown;
}

export interface BulkOptions<T> {
  /** e.g. "created", "extended": used in progress and summaries. */
  verb: string;
  label: (item: T, index: number) => string;
  concurrency?: number;
  /** A short description of a success for the per-item line, e.g. the new proxyRef. */
  describe?: (value: unknown) => string;
  /** Aborted when the rest of the batch is not worth starting (see UpstreamBreaker). */
  stop?: AbortSignal;
  /** Told when the run starts, as each item is done or failed, and when it is over (e.g. progressRenderer). */
  onEvent?: (e: ProgressEvent) => void;
  /** Given each success's value as it is done (before the batch ends): output that streams, such as -o conn lines. */
  onSuccess?: (value: unknown, index: number) => void;
}

export async function runBulk<T, R>(
  ctx: Pick<Context, 'signal'>,
  items: readonly T[],
  opts: BulkOptions<T>,
  worker: (item: T, index: number) => Promise<R>,
): Promise<BulkReport<R>> {
  const results: (Outcome<R> | undefined)[] = new Array(items.length);
  const emit = opts.onEvent ?? (() => undefined);
  const total = items.length;
  let done = 0;
  let failed = 0;
  emit({ type: 'started', verb: opts.verb, total });
  let next = 0;
  const lane = async () => {
    for (;;) {
      if (ctx.signal.aborted || opts.stop?.aborted || next >= items.length) return;
      const index = next++;
      const item = items[index]!;
      const label = opts.label(item, index);
      let outcome: Outcome<R>;
      const finished = inFlight.item(label);
      try {
        outcome = { index, label, ok: true, value: await worker(item, index) };
      } catch (error) {
        outcome = { index, label, ok: false, error };
      } finally {
        finished();
      }
      // An item that never started its request because of Ctrl-C is "not started", not failed.
      if (!outcome.ok && outcome.error instanceof InterruptedError) return;
      results[index] = outcome;
      done += 1;
      if (outcome.ok) {
        opts.onSuccess?.(outcome.value, index);
        emit({ type: 'done', what: opts.describe ? opts.describe(outcome.value) : label, done, failed, total });
      } else {
        failed += 1;
        emit({ type: 'failed', label, message: errorMessage(outcome.error), done, failed, total });
      }
    }
  };
  const lanes = Math.max(1, Math.min(opts.concurrency ?? DEFAULT_CONCURRENCY, items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  emit({ type: 'finished', done, failed, total });
  const outcomes = results.filter((o): o is Outcome<R> => o !== undefined);
  const pending = items.flatMap((item, i) => (results[i] === undefined ? [opts.label(item, i)] : []));
  const interrupted = ctx.signal.aborted;
  return {
    outcomes,
    total: items.length,
    notStarted: pending.length,
    pending,
    interrupted,
    stopped: !interrupted && opts.stop?.aborted === true,
    stopReason: !interrupted && opts.stop?.aborted === true ? opts.stop.reason : undefined,
  };
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function errorSummary(err: unknown): { code: string; message: string; requestId?: string } {
  // A "false" answer carries the API's answer and what the read-back found into the JSON items.
  if (err instanceof NotAppliedError) return notAppliedObject(err) as { code: string; message: string };
  const code = err instanceof CliError ? err.code : 'unexpected_error';
  const requestId = err instanceof ApiError ? err.requestId : undefined;
  return { code, message: errorMessage(err), ...(requestId ? { requestId } : {}) };
}

export function itemOutcomes(report: BulkReport<unknown>): ItemOutcome[] {
  return report.outcomes.map((o) => (o.ok ? { item: o.label, ok: true } : { item: o.label, ok: false, error: errorSummary(o.error) }));
}

/**
 * After the results are printed: the summary on stderr and the error that sets the exit code.
 * Ctrl-C → 130; stopped early (`BulkOptions.stop`) → `stopError`, or the shared ledger's error (exit 9); everything failed → that
 * failure's own code; some failed → 10. `finishRest`, given the labels not started after Ctrl-C,
 * is the command line that does exactly those; the summary then names them and prints it.
 */
export function settleBulk(
  ctx: Context,
  report: BulkReport<unknown>,
  verb: string,
  stopError?: (succeeded: number) => CliError,
  finishRest?: (pending: string[]) => string,
): void {
  const ok = report.outcomes.filter((o) => o.ok);
  const failed = report.outcomes.filter((o): o is Outcome<unknown> & { ok: false } => !o.ok);
  const many = report.total > 1;
  const rest = report.interrupted && report.pending.length > 0 && finishRest ? finishRest(report.pending) : undefined;
  if ((many && (failed.length > 0 || report.interrupted || report.stopped)) || rest) {
    printBulkSummary(ctx, {
      verb,
      total: report.total,
      succeeded: ok.map((o) => o.label),
      failed: failed.map((f) => ({ label: f.label, message: errorMessage(f.error) })),
      notStarted: report.notStarted,
      ...(rest ? { pending: report.pending, finishRest: rest } : {}),
    });
  }
  if (report.interrupted) {
    throw new InterruptedError(`interrupted: ${ok.length} ${verb}, ${failed.length} failed, ${report.notStarted} not started`);
  }
  // The shared ledger was lost mid-run: what was charged is told above, the rest never started.
  if (report.stopped && report.stopReason instanceof LedgerUnavailableError) throw report.stopReason;
  if (report.stopped && stopError) throw stopError(ok.length);
  if (failed.length === 0) return;
  // Nothing succeeded: not a partial failure; the (first) failure's own exit code says what went wrong.
  if (ok.length === 0) throw failed[0]!.error;
  throw new PartialFailureError(`${ok.length} of ${report.total} ${verb}, ${failed.length} failed`, itemOutcomes(report));
}

/**
 * Stops a batch on a pool that keeps failing upstream: after `limit` consecutive items failed
 * with a refunded 503, the rest would only repeat it (4 requests per item, and again on a re-run).
 */
export class UpstreamBreaker {
  private readonly controller = new AbortController();
  private consecutive = 0;
  /** Items that failed with a refund (nothing charged). */
  refunded = 0;

  constructor(private readonly limit = 3) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Called with each item's outcome, in the order they complete. */
  record(ok: boolean, error?: unknown): void {
    // Only the spec's refunded failure: another 503 (a gateway's) proves nothing was charged.
    const upstream = !ok && error instanceof ApiError && error.status === 503 && error.code === 'upstream_unreachable';
    if (upstream) this.refunded += 1;
    this.consecutive = upstream ? this.consecutive + 1 : 0;
    if (this.consecutive >= this.limit) this.controller.abort();
  }
}
