// Progress and summaries of bulk work (src/units/bulk.ts reports events; this draws them) on
// stderr: a bar redrawn in place on a TTY, one line per item otherwise (so logs, and whoever
// watches them, see progress as it happens), nothing with --quiet or for a single item.
import { clearLine, cursorTo } from 'node:readline';
import type { BaseContext as Context } from '../globals.js';
import { escapeControl } from './escape.js';
import { bar, money } from './format.js';
import { paintFor } from './index.js';

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
  const redraw = (text: string) => {
    cursorTo(out, 0);
    clearLine(out, 0);
    if (text) out.write(text);
  };
  return (e) => {
    if (e.type === 'started') {
      verb = e.verb;
      on = !ctx.globals.quiet && e.total > 1;
      tty = on && ctx.io.stderrIsTTY;
      return;
    }
    if (!on) return;
    if (e.type === 'finished') {
      if (tty) redraw('');
      return;
    }
    if (tty) {
      const f = e.failed ? paint.red(` ${e.failed} failed`) : '';
      redraw(`${bar(e.done / e.total, BAR_WIDTH, paint)} ${e.done}/${e.total} ${verb}${f}`);
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
}

/** "2 of 6 created: #0, #1", then a line per failure and the count not started. */
export function printBulkSummary(ctx: Context, s: BulkSummary): void {
  const lines = [`${s.succeeded.length} of ${s.total} ${s.verb}${s.succeeded.length ? `: ${s.succeeded.join(', ')}` : ''}`];
  for (const f of s.failed) lines.push(`  failed ${f.label}: ${f.message}`);
  if (s.notStarted) lines.push(`  ${s.notStarted} not started`);
  ctx.io.stderr.write(`${lines.map(escapeControl).join('\n')}\n`);
}

/** "charged 10.20 USD, balance now 89.80 USD" (or only the charge when the balance is unknown); hidden by --quiet. */
export function printCharge(ctx: Context, c: { amount: number; balanceUsd: number | undefined } | undefined): void {
  if (!c) return;
  const balance = c.balanceUsd === undefined ? '' : `, balance now ${money(c.balanceUsd)}`;
  ctx.notice(`charged ${money(c.amount)}${balance}`);
}
