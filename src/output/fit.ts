// Tables that fit the terminal. cli-table3 measures each column (its computed colWidths); this
// decides which columns to keep and how wide each may be, and cli-table3 draws them with those
// colWidths (truncating with "…"). A column that must arrive whole (a connection string) is never
// shortened: it is hidden, and the hint names what shows it.
import type { IO } from '../io.js';

/** What fitting needs to know of a column. */
export interface FitColumn {
  header: string;
  /** 0 is never hidden; higher numbers are hidden first (ties: the rightmost first). Default 1. */
  priority?: number | undefined;
  /** Set on a column never shortened (a connection string): how to see it when it had to be hidden (e.g. "-o conn"). */
  whole?: string | undefined;
  /** Set when no row has a value in it (every cell blank or "-"): such a column is the first to go. */
  empty?: boolean | undefined;
}

export interface Fit {
  /** Indexes of the columns shown, in their order. */
  keep: number[];
  /** cli-table3 colWidths (padding included) for the kept columns. */
  colWidths: number[];
  /** Indexes (into the original columns) of the hidden columns, in the order they were hidden. */
  hidden: number[];
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
 * hide empty columns first (they tell no row from another, whatever their priority), then
 * low-priority columns, then shorten the widest cells, never below their header or 5
 * characters, then hide the columns that must stay whole, and only then go further.
 */
export function fitColumns(columns: FitColumn[], natural: number[], width: number): Fit {
  const keep = columns.map((_, i) => i);
  const widths = new Map(keep.map((i) => [i, natural[i] ?? PADDING]));
  const total = () => tableWidth(keep.map((i) => widths.get(i)!));
  const hidden: number[] = [];
  const prio = (i: number) => (i === 0 ? 0 : (columns[i]!.priority ?? 1));
  const hide = (candidates: number[]) => {
    const order = candidates.sort((a, b) => prio(b) - prio(a) || b - a);
    for (const i of order) {
      if (total() <= width) return;
      keep.splice(keep.indexOf(i), 1);
      hidden.push(i);
    }
  };
  const shorten = (floor: (i: number) => number) => {
    while (total() > width) {
      const can = keep.filter((i) => !columns[i]!.whole && widths.get(i)! > floor(i));
      if (can.length === 0) break;
      const widest = can.reduce((a, b) => (widths.get(b)! > widths.get(a)! ? b : a));
      widths.set(widest, widths.get(widest)! - 1);
    }
  };
  const floor = (i: number) => Math.min(natural[i]!, Math.max(5, columns[i]!.header.length) + PADDING);
  // A whole column too wide even beside the first column alone goes first: the others stay.
  const whole = () => keep.filter((i) => columns[i]!.whole && i !== 0);
  while (whole().length > 0 && tableWidth([floor(0), ...whole().map((i) => widths.get(i)!)]) > width) {
    const i = whole().at(-1)!;
    keep.splice(keep.indexOf(i), 1);
    hidden.push(i);
  }
  hide(keep.filter((i) => columns[i]!.empty && i !== 0));
  hide(keep.filter((i) => prio(i) > 0));
  // Hiding in priority order can leave room a column hidden earlier fits in (a wide one went
  // last): it comes back, the most important first, so no space is left while a column is hidden.
  for (const i of [...hidden].reverse()) {
    if (columns[i]!.empty || total() + widths.get(i)! + 1 > width) continue;
    keep.push(i);
    keep.sort((a, b) => a - b);
    hidden.splice(hidden.indexOf(i), 1);
  }
  shorten(floor);
  hide(whole());
  // A very narrow terminal: every column but the first may go, and cells shrink to one character.
  hide(keep.filter((i) => i !== 0));
  shorten(() => 1 + PADDING);
  const shortened = keep.filter((i) => widths.get(i)! < natural[i]!);
  return { keep, colWidths: keep.map((i) => widths.get(i)!), hidden, shortened };
}

/** The one line said on stderr when a table was fitted, or undefined when nothing was hidden. */
export function fitHint(columns: FitColumn[], fit: Fit, width: number): string | undefined {
  const parts: string[] = [];
  const hidden = fit.hidden.map((i) => columns[i]!);
  const plain = hidden.filter((c) => !c.whole).map((c) => (c.empty ? `${c.header} (empty)` : c.header));
  if (plain.length > 0) {
    const n = plain.length;
    parts.push(`${n} column${n === 1 ? '' : 's'} hidden to fit ${width} columns: ${plain.join(', ')}; -o json shows all`);
  }
  for (const c of hidden) if (c.whole) parts.push(wholeHiddenHint(c.header, c.whole, width));
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** "connection hidden to fit 40 columns; -o conn shows it": a value that is never cut, left out. */
export function wholeHiddenHint(header: string, whole: string, width: number): string {
  return `${header} hidden to fit ${width} columns; ${whole} shows it`;
}
