// Tables that fit the terminal. cli-table3 measures each column (its computed colWidths); this
// decides which columns to keep and how wide each may be, and cli-table3 draws them with those
// colWidths (truncating with "…", or word-wrapping the columns that ask for it).
import type { IO } from '../io.js';

/** What fitting needs to know of a column. */
export interface FitColumn {
  header: string;
  /** 0 is never hidden; higher numbers are hidden first (ties: the rightmost first). Default 1. */
  priority?: number | undefined;
  /** How to see this column whole when it had to be shortened (e.g. "-o conn"); it is shortened last. */
  whole?: string | undefined;
}

export interface Fit {
  /** Indexes of the columns shown, in their order. */
  keep: number[];
  /** cli-table3 colWidths (padding included) for the kept columns. */
  colWidths: number[];
  /** Headers of the hidden columns. */
  hidden: string[];
  /** Indexes (into the original columns) of the columns narrower than their content. */
  shortened: number[];
}

const PADDING = 2;

/** The width tables must fit, or undefined: off a terminal tables are left as they are. */
export function terminalColumns(io: IO): number | undefined {
  if (!io.stdoutIsTTY) return undefined;
  if (typeof io.columns === 'number' && io.columns > 0) return io.columns;
  // A pty that reports no size (script(1), some CI runners): COLUMNS, as ls(1) reads it.
  const env = Number(io.env.COLUMNS);
  return Number.isInteger(env) && env > 0 ? env : undefined;
}

/** Width of a drawn table: every column with its padding, and one border between and around. */
export function tableWidth(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + widths.length + 1;
}

/**
 * Which columns to keep and how wide, given cli-table3's natural widths (padding included):
 * hide low-priority columns first, then shorten the widest cells (columns with a `whole` last),
 * never below their header or 5 characters until nothing else is left.
 */
export function fitColumns(columns: FitColumn[], natural: number[], width: number): Fit {
  const keep = columns.map((_, i) => i);
  const widths = new Map(keep.map((i) => [i, natural[i] ?? PADDING]));
  const total = () => tableWidth(keep.map((i) => widths.get(i)!));
  const hidden: string[] = [];
  const prio = (i: number) => (i === 0 ? 0 : (columns[i]!.priority ?? 1));
  const hide = (candidates: number[]) => {
    const order = candidates.sort((a, b) => prio(b) - prio(a) || b - a);
    for (const i of order) {
      if (total() <= width) return;
      keep.splice(keep.indexOf(i), 1);
      hidden.push(columns[i]!.header);
    }
  };
  const shorten = (floor: (i: number) => number) => {
    for (const lastResort of [false, true]) {
      while (total() > width) {
        const can = keep.filter((i) => Boolean(columns[i]!.whole) === lastResort && widths.get(i)! > floor(i));
        if (can.length === 0) break;
        const widest = can.reduce((a, b) => (widths.get(b)! > widths.get(a)! ? b : a));
        widths.set(widest, widths.get(widest)! - 1);
      }
    }
  };
  hide(keep.filter((i) => prio(i) > 0));
  shorten((i) => Math.min(natural[i]!, Math.max(5, columns[i]!.header.length) + PADDING));
  // A very narrow terminal: every column but the first may go, and cells shrink to one character.
  hide(keep.filter((i) => i !== 0));
  shorten(() => 1 + PADDING);
  const shortened = keep.filter((i) => widths.get(i)! < natural[i]!);
  return { keep, colWidths: keep.map((i) => widths.get(i)!), hidden, shortened };
}

/** The one line said on stderr when a table was fitted, or undefined when nothing changed. */
export function fitHint(columns: FitColumn[], fit: Fit, width: number): string | undefined {
  const parts: string[] = [];
  if (fit.hidden.length > 0) {
    const n = fit.hidden.length;
    parts.push(`${n} column${n === 1 ? '' : 's'} hidden to fit ${width} columns: ${fit.hidden.join(', ')}; -o json shows all`);
  }
  for (const i of fit.shortened) {
    const c = columns[i]!;
    if (c.whole) parts.push(`${c.header} shortened to fit ${width} columns; ${c.whole} shows it whole`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}
