// One object: JSON as it came, or a key/value table for people whose values wrap to the terminal.
import { stripVTControlCharacters } from 'node:util';
import type { BaseContext as Context } from '../globals.js';
import { escapeDeep } from './escape.js';
import { genericColumns, tsvField, tsvPairs } from './fields.js';
import { terminalColumns, wholeHiddenHint } from './fit.js';
import { cell, shortTime } from './format.js';
import { jqText } from './jq.js';
import { printList } from './list.js';
import { paintFor } from './paint.js';
import { COMPACT, sayFitHint } from './table.js';
import { type Column, outputMode, type View } from './view.js';

/** Renders one object: JSON as it came; a key/value table for people. */
export async function printObject<T>(ctx: Context, value: T, view: View<T> = {}): Promise<void> {
  const mode = outputMode(ctx);
  const out = ctx.io.stdout;
  if ((mode === 'json' || mode === 'jsonl') && ctx.globals.jq !== undefined) return void out.write(jqText(ctx, JSON.stringify(value)));
  if (mode === 'json') return void out.write(`${JSON.stringify(value, null, 2)}\n`);
  if (mode === 'jsonl') return void out.write(`${JSON.stringify(value)}\n`);
  if (mode === 'conn' || mode === 'csv') {
    await printList(ctx, [value], view);
    return;
  }
  const fields: Column<T>[] = view.columns ?? genericColumns([value]);
  const shown = escapeDeep(value);
  if (mode === 'tsv') {
    for (const f of fields) for (const [k, v] of tsvPairs(f.header, f.value(shown))) out.write(`${k}\t${tsvField(cell(v))}\n`);
    return;
  }
  const paint = paintFor(ctx);
  const rows = await fitValues(ctx, fields, (f) => (f.format ? f.format(shown, paint) : cell(f.value(shown))));
  const { default: Table } = await import('cli-table3');
  // No colWidths: the labels keep their width, never split; the values are already wrapped to fit.
  const table = new Table({ chars: COMPACT, style: { head: [], border: ctx.stdoutColor ? ['grey'] : [] } });
  for (const [f, value] of rows) table.push({ [paint.bold(f.header)]: value });
  out.write(`${table.toString()}\n`);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A timestamp wider than the room is never cut in the middle of a number: to the minute
 * (`2026-11-28 05:17Z`), on one line when that fits, else its date above its time. Undefined for
 * anything else.
 */
function timeThatFits(value: string, room: number): string | undefined {
  const plain = stripVTControlCharacters(value);
  if (plain.length <= room || !ISO_TIME.test(plain)) return undefined;
  const short = shortTime(plain);
  if (short.length <= room) return value.replace(plain, short);
  const [date, time] = short.split(' ') as [string, string];
  return value.replace(plain, `${date}\n${time}`);
}

/** Borders and padding of a key/value table: "│ label │ value │". */
const KV_FRAME = 7;

/**
 * The rows of a key/value table on a terminal narrower than it: each value wrapped (wrap-ansi, so a
 * colour is closed and opened again around each break, never split) in what the labels leave,
 * except a value that must stay whole (a connection string), which is left out with a hint.
 */
async function fitValues<T>(ctx: Context, fields: Column<T>[], text: (f: Column<T>) => string): Promise<[Column<T>, string][]> {
  const rows = fields.map((f): [Column<T>, string] => [f, text(f)]);
  const width = terminalColumns(ctx.io);
  if (width === undefined) return rows;
  const labels = Math.max(...fields.map((f) => stripVTControlCharacters(f.header).length));
  const room = width - labels - KV_FRAME;
  // Too narrow for any value beside the labels: left as it is (the terminal wraps it).
  if (room < 10) return rows;
  const { default: wrapAnsi } = await import('wrap-ansi');
  const hints: string[] = [];
  const fitted = rows.flatMap(([f, value]): [Column<T>, string][] => {
    const time = timeThatFits(value, room);
    if (time !== undefined) return [[f, time]];
    const wrapped = wrapAnsi(value, room, { hard: true, trim: false });
    if (!wrapped.includes('\n')) return [[f, value]];
    if (f.whole) {
      hints.push(wholeHiddenHint(f.header, f.whole, width));
      return [];
    }
    return [[f, wrapped]];
  });
  if (hints.length > 0) await sayFitHint(ctx, hints.join('; '), width);
  return fitted;
}
