// Progress and summaries of bulk work (src/units/bulk.ts reports events; this draws them) on
// stderr: a bar redrawn in place on a TTY, one line per item otherwise (so logs, and whoever
// watches them, see progress as it happens), nothing with --quiet or for a single item.
import { clearLine, cursorTo } from 'node:readline';
import type { BaseContext as Context } from '../globals.js';
import { escapeControl } from './escape.js';
import { bar, humanDuration, money } from './format.js';
import { paintFor } from './paint.js';

export type ProgressEvent =
  | { type: 'started'; verb: string; total: number }
  /** `what` names the item as the progress line shows it, e.g. the new proxyRef. */
  | { type: 'done'; what: string; done: number; failed: number; total: number }
  | { type: 'failed'; label: string; message: string; done: number; failed: number; total: number }
  | { type: 'finished'; done: number; failed: number; total: number };

const BAR_WIDTH = 24;

/** A listener for one run's events; call it once per run. */
export function progressRenderer(ctx: Context): (e: ProgressEvent) => void {
  const out = ctx.io.stderr;
  const paint = paintFor(ctx, 'stderr');
  let verb = '';
  let on = false;
  let tty = false;
  let startedAt = 0;
  let last = { done: 0, failed: 0, total: 0 };
  let stop = () => undefined as unknown;
  const redraw = (text: string) => {
    cursorTo(out, 0);
    clearLine(out, 0);
    if (text) out.write(text);
  };
  // On a terminal: the bar, the count, then the rate-limit wait or the time left, as fits the width.
  const drawBar = () => {
    const now = Date.now();
    const { done, failed, total } = last;
    const head = `${bar(total ? done / total : 0, BAR_WIDTH, paint)} ${done}/${total} ${verb}`;
    const parts: [string, string][] = [];
    if (failed) parts.push([` ${failed} failed`, paint.red(` ${failed} failed`)]);
    const wait = ctx.activity.describeRateWait(now);
    const left = done > 0 && done < total ? ` · ETA ${humanDuration(Math.ceil((((now - startedAt) / done) * (total - done)) / 1000))}` : '';
    if (wait) parts.push([` · ${wait}`, ` · ${wait}`]);
    else if (left) parts.push([left, left]);
    const columns = (out as NodeJS.WriteStream).columns || 80;
    let width = BAR_WIDTH + 5 + ` ${done}/${total} ${verb}`.length;
    let text = head;
    for (const [plain, shown] of parts) {
      if (width + plain.length >= columns) break;
      width += plain.length;
      text += shown;
    }
    redraw(text);
  };
  const watch = () => {
    if (tty) {
      const tick = setInterval(drawBar, 500);
      tick.unref?.();
      const off = ctx.activity.onRateWait(drawBar);
      stop = () => {
        clearInterval(tick);
        off();
      };
      return;
    }
    // Off a terminal, a line when a wait starts (a second or more), so logs say why nothing moves:
    // once per wait for a window, not once per request that waits for it (each concurrent purchase
    // starts and ends its own wait for the same window's end).
    let said: number | undefined;
    stop = ctx.activity.onRateWait((until) => {
      if (until === undefined || until - Date.now() < 1000) return;
      if (said !== undefined && Math.abs(until - said) < 1000) return;
      said = until;
      out.write(`[${last.done}/${last.total}] ${ctx.activity.describeRateWait()}\n`);
    });
  };
  return (e) => {
    if (e.type === 'started') {
      verb = e.verb;
      on = !ctx.globals.quiet && e.total > 1;
      tty = on && ctx.io.stderrIsTTY;
      startedAt = Date.now();
      last = { done: 0, failed: 0, total: e.total };
      if (on) watch();
      return;
    }
    if (!on) return;
    if (e.type === 'finished') {
      stop();
      if (tty) redraw('');
      return;
    }
    last = { done: e.done, failed: e.failed, total: e.total };
    if (tty) {
      drawBar();
      return;
    }
    const what = e.type === 'done' ? `${verb} ${e.what}` : `failed ${e.label}: ${e.message}`;
    out.write(`[${e.done}/${e.total}] ${escapeControl(what)}\n`);
  };
}

export interface BulkSummary {
  verb: string;
  total: number;
  /** Labels of the items that succeeded, in input order. */
  succeeded: string[];
  failed: { label: string; message: string }[];
  notStarted: number;
  /** The items not started, by name, when they can be named (e.g. unit refs). */
  pending?: string[];
  /** The command line that does exactly the items not started. */
  finishRest?: string;
}

/**
 * "2 of 6 created: #0, #1", then a line per failure and the count not started; or, when they are
 * named, "not started: PRX-7, PRX-8" and the command that finishes them. Never hidden by --quiet:
 * it is what the user needs to finish the batch.
 */
export function printBulkSummary(ctx: Context, s: BulkSummary): void {
  const lines = [`${s.succeeded.length} of ${s.total} ${s.verb}${s.succeeded.length ? `: ${s.succeeded.join(', ')}` : ''}`];
  for (const f of s.failed) lines.push(`  failed ${f.label}: ${f.message}`);
  if (s.pending?.length) lines.push(`  not started: ${s.pending.join(', ')}`);
  else if (s.notStarted) lines.push(`  ${s.notStarted} not started`);
  if (s.finishRest) lines.push(`to finish the rest: ${s.finishRest}`);
  ctx.io.stderr.write(`${lines.map(escapeControl).join('\n')}\n`);
}

/** "charged 10.20 USD, balance now 89.80 USD" (or only the charge when the balance is unknown); hidden by --quiet. */
export function printCharge(ctx: Context, c: { amount: number; balanceUsd: number | undefined } | undefined): void {
  if (!c) return;
  const balance = c.balanceUsd === undefined ? '' : `, balance now ${money(c.balanceUsd)}`;
  ctx.notice(`charged ${money(c.amount)}${balance}`);
}

/** A line on stderr that --quiet does not hide: what the user needs to resume safely (an idempotency key). */
export function printKeep(ctx: Context, message: string): void {
  ctx.io.stderr.write(`${escapeControl(message)}\n`);
}

/** `units check`'s last line: "3 ok, 1 failed · latency median 12 ms, p95 40 ms"; hidden by --quiet. */
export function printCheckSummary(
  ctx: Context,
  s: { ok: number; failed: number; notStarted: number; medianMs: number | undefined; p95Ms: number | undefined },
): void {
  if (ctx.globals.quiet) return;
  const paint = paintFor(ctx, 'stderr');
  const parts = [paint.green(`${s.ok} ok`), s.failed ? paint.red(`${s.failed} failed`) : `${s.failed} failed`];
  if (s.notStarted) parts.push(`${s.notStarted} not started (interrupted)`);
  const latency = s.medianMs === undefined ? '' : ` · latency median ${s.medianMs} ms, p95 ${s.p95Ms} ms`;
  ctx.io.stderr.write(`${parts.join(', ')}${latency}\n`);
}
