// Human tables (cli-table3, loaded when one is drawn), narrowed to the terminal by fit.ts.
import { stripVTControlCharacters } from 'node:util';
import type { BaseContext as Context } from '../globals.js';
import { escapeDeep } from './escape.js';
import { fitColumns, fitHint, tableWidth, terminalColumns } from './fit.js';
import { cell } from './format.js';
import { paintFor } from './paint.js';
import type { Column } from './view.js';

/** No rule between body rows: long lists stay readable and half as tall. */
export const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

export async function renderTable<T>(ctx: Context, rows: T[], columns: Column<T>[]): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const paint = paintFor(ctx);
  const escaped = rows.map((r) => escapeDeep(r));
  let cells = escaped.map((row) => columns.map((c) => (c.format ? c.format(row, paint) : cell(c.value(row)))));
  const draw = (keep: number[], colWidths: number[] = []) => {
    const table = new Table({
      head: keep.map((i) => paint.bold(columns[i]!.header)),
      chars: COMPACT,
      style: { head: [], border: ctx.stdoutColor ? ['grey'] : [] },
      colWidths,
    });
    for (const r of cells) table.push(keep.map((i) => r[i]!));
    // toString() leaves the widths cli-table3 measured in options.colWidths.
    return { text: table.toString(), widths: table.options.colWidths as number[] };
  };
  let natural = draw(columns.map((_, i) => i));
  const width = terminalColumns(ctx.io);
  if (width === undefined || tableWidth(natural.widths) <= width) return natural.text;
  // Too wide: the columns with a shorter form (timestamps) take it before anything is hidden.
  if (columns.some((c) => c.compact)) {
    cells = escaped.map((row, r) => columns.map((c, i) => (c.compact ? c.compact(row, paint) : cells[r]![i]!)));
    natural = draw(columns.map((_, i) => i));
    if (tableWidth(natural.widths) <= width) return natural.text;
  }
  // A column no row fills (a check's error column when nothing failed) says nothing: it goes first.
  const blank = (text: string) => /^-?$/.test(stripVTControlCharacters(text).trim());
  const fitting = columns.map((c, i) => ({ ...c, empty: cells.every((r) => blank(r[i]!)) }));
  const fit = fitColumns(fitting, natural.widths, width);
  const hint = fitHint(fitting, fit, width);
  if (hint) await sayFitHint(ctx, hint, width);
  return draw(fit.keep, fit.colWidths).text;
}

/** A fitting hint on stderr, wrapped to the terminal too (between words). */
export async function sayFitHint(ctx: Context, hint: string, width: number): Promise<void> {
  const { default: wrapAnsi } = await import('wrap-ansi');
  for (const line of wrapAnsi(hint, width, { hard: true }).split('\n')) ctx.notice(line);
}
