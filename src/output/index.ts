// The output layer: commands hand over rows or objects; this renders table (cli-table3 on a TTY,
// tab-separated when piped), json, jsonl, csv or conn. Data to stdout, notices to stderr.
// BaseContext: the output layer sees streams, globals and colour, never the API client or config.
import type { Writable } from 'node:stream';
import type { BaseContext as Context, OutputFormat } from '../globals.js';
import { UsageError } from '../errors.js';
import { escapeControl, escapeDeep } from './escape.js';
import { isPlainList } from '../net/plain.js';
import { cell, paintWhen, plainPaint, type Paint } from './format.js';
import { stripVTControlCharacters } from 'node:util';
import { fitColumns, fitHint, tableWidth, terminalColumns, wholeHiddenHint } from './fit.js';
// Light: jq itself (jq-wasm) is loaded by the kit, only when --jq is given (prepareJq).
import { jqText } from './jq.js';

export * from './format.js';
export * from './escape.js';
export { terminalColumns } from './fit.js';

export interface Column<T> {
  header: string;
  /** The value for csv and for tables when no `format` is given. */
  value: (row: T) => unknown;
  /** How the value looks in a human table (may colour). */
  format?: (row: T, paint: Paint) => string;
  /** When a table is wider than the terminal: 0 is never hidden, higher numbers are hidden first. Default 1. */
  priority?: number | undefined;
  /**
   * Set on a value that is useless cut or wrapped (a connection string, a password): how to see it
   * (e.g. "-o conn") when the terminal is too narrow for it, where it is hidden rather than cut.
   */
  whole?: string | undefined;
}

export interface View<T> {
  /** Table columns; when absent, every top-level field is shown (unknown shapes never crash). */
  columns?: Column<T>[] | undefined;
  /** Connection string for -o conn; commands that return units set it. */
  conn?: ((row: T) => string | undefined) | undefined;
  /** Said on stderr when a list is empty, e.g. "No units found." */
  empty?: string | undefined;
  /**
   * The resource's csv columns, in order: field names, a nested field as its path
   * (`credentials.username`). Every row has every column (a field a row lacks is an empty cell),
   * whatever the first row holds. Without them, the columns are every field of every item (the
   * list is read whole first).
   */
  fields?: readonly string[] | undefined;
}

/** table | tsv (a table on a non-TTY without -o) | json | jsonl | csv | conn */
export type Mode = Exclude<OutputFormat, 'table'> | 'table' | 'tsv';

export function outputMode(ctx: Context): Mode {
  const f = ctx.globals.output;
  if (f === undefined) return ctx.io.stdoutIsTTY ? 'table' : 'tsv';
  return f;
}

export function paintFor(ctx: Context, stream: 'stdout' | 'stderr' = 'stdout'): Paint {
  const on = stream === 'stdout' ? ctx.stdoutColor : ctx.stderrColor;
  if (!on) return plainPaint;
  // Only if loadPaint() was skipped (no command does): the same codes, minus chalk's nesting care.
  if (!chalk) return paintWhen(true);
  const c = new chalk.Chalk({ level: 1 });
  return { bold: c.bold, dim: c.dim, red: c.red, green: c.green, yellow: c.yellow, cyan: c.cyan };
}

let chalk: typeof import('chalk') | undefined;

/**
 * Loads chalk for paintFor(), before a command runs, only when a stream is coloured: piped and
 * redirected output (scripts, cron: most runs) never loads it (src/kit/action.ts).
 */
export async function loadPaint(): Promise<void> {
  chalk ??= await import('chalk');
}

/**
 * Known columns first, then a generic column for every other top-level field of the value(s),
 * so fields the API adds later still show in tables.
 */
export function withExtraFields<T>(known: Column<T>[], covered: readonly string[], sample: T[]): Column<T>[] {
  const extra = genericColumns(sample).filter((c) => !covered.includes(c.header) && c.header !== 'value');
  return [...known, ...extra];
}

/**
 * csv columns of a list printed whole (pools, countries, a usage record): the resource's known
 * ones first, always, then every other field found in any of `items`, never only the first's.
 */
export function withExtraFieldNames(known: readonly string[], items: readonly unknown[]): string[] {
  return [...known, ...flatKeys(items).filter((k) => !known.includes(k))];
}

/** Every leaf path (`credentials.username`) of every item, in the order first seen; keys escaped as the rows will be. */
function flatKeys(items: readonly unknown[]): string[] {
  const keys = new Set<string>();
  for (const item of items) for (const k of Object.keys(flatten(escapeDeep(item)))) keys.add(k);
  return [...keys];
}

function genericColumns<T>(sample: readonly T[]): Column<T>[] {
  const keys: string[] = [];
  for (const row of sample) {
    if (row && typeof row === 'object') for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  }
  if (keys.length === 0) return [{ header: 'value', value: (r) => r }];
  // Rows may arrive escaped (keys included), so a key with control characters is looked up both ways.
  return keys.map((k) => ({
    header: escapeControl(k),
    value: (r: T) => (r as Record<string, unknown>)?.[k] ?? (r as Record<string, unknown>)?.[escapeControl(k)],
  }));
}

function flatten(obj: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
      else out[key] = v;
    }
  } else {
    out[prefix || 'value'] = obj;
  }
  return out;
}

function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.map(cell).join(';') : cell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function tsvField(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ');
}

/**
 * What printList writes to stdout, gathered for one turn of the event loop and written at once:
 * a streamed page of 200 units is one write() rather than 200 (single writes, each through the
 * stream machinery, dominated `units list --all -o conn`; bench/RESULTS.md). Everything gathered is written
 * as soon as the loop waits (for the next page, say), at 64 KiB, and by flush() at the end, so a
 * stream still shows each page as it arrives.
 */
class LineBatch {
  private buffered = '';
  private scheduled = false;

  constructor(private readonly out: Writable) {}

  write(text: string): void {
    this.buffered += text;
    if (this.buffered.length >= 65_536) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  flush(): void {
    if (this.buffered === '') return;
    const text = this.buffered;
    this.buffered = '';
    this.out.write(text);
  }
}

/** Renders a list (an array, or an async iterable streamed page by page). Returns the item count. */
export async function printList<T>(ctx: Context, items: ListItems<T>, view: View<T> = {}): Promise<number> {
  const out = new LineBatch(ctx.io.stdout);
  try {
    return await printListTo(out, ctx, items, view);
  } finally {
    out.flush();
  }
}

// The per-item loops index the page rather than use for-of: run once per page, they mostly run
// before V8 optimises them, and unoptimised for-of allocates a result object per item (units
// list's noting() loops the same way).
async function printListTo<T>(out: LineBatch, ctx: Context, items: ListItems<T>, view: View<T>): Promise<number> {
  const mode = outputMode(ctx);
  let count = 0;
  // Columns taken from the items (a view without its resource's own) come from all of them, never
  // from the first row alone: such a list is read whole first.
  if (ctx.globals.jq !== undefined && (mode === 'json' || mode === 'jsonl')) return printThroughJq(out, ctx, items, mode, view);
  const list = (mode === 'csv' && !view.fields) || (mode === 'tsv' && !view.columns) ? await whole(items) : items;
  const pages = pagesOf(list);
  switch (mode) {
    case 'json': {
      // Streamed as a valid JSON array, so `--all` never holds every page in memory.
      for await (const page of pages)
        for (let i = 0; i < page.length; i++) {
          const item = page[i] as T;
          out.write(`${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(item, null, 2))}`);
          count += 1;
        }
      out.write(count === 0 ? '[]\n' : '\n]\n');
      break;
    }
    case 'jsonl':
      for await (const page of pages)
        for (let i = 0; i < page.length; i++) {
          const item = page[i] as T;
          out.write(`${JSON.stringify(item)}\n`);
          count += 1;
        }
      break;
    case 'conn': {
      if (!view.conn) throw new UsageError('-o conn is only available for commands that return units');
      for await (const page of pages) {
        // A page the API client parsed from plain text has nothing to escape (src/net/plain.ts).
        const plain = isPlainList(page);
        for (let i = 0; i < page.length; i++) {
          const item = page[i] as T;
          const line = view.conn(plain ? item : escapeDeep(item));
          if (line) out.write(`${line}\n`);
          count += 1;
        }
      }
      break;
    }
    case 'csv': {
      const header = view.fields ?? flatKeys(list as readonly T[]);
      let headed = header.length === 0;
      for await (const page of pages) {
        // Once the first page is read (a failed read prints nothing); a resource with columns of its
        // own heads even an empty list, so a script reads the same header.
        if (!headed) out.write(`${header.map(csvField).join(',')}\n`);
        headed = true;
        const plain = isPlainList(page);
        for (let i = 0; i < page.length; i++) {
          const item = page[i] as T;
          const flat = flatten(plain ? item : escapeDeep(item));
          out.write(`${header.map((k) => csvField(flat[k])).join(',')}\n`);
          count += 1;
        }
      }
      break;
    }
    case 'tsv': {
      const cols = view.columns ?? genericColumns(list as readonly T[]);
      for await (const page of pages) {
        const plain = isPlainList(page);
        for (let i = 0; i < page.length; i++) {
          const item = page[i] as T;
          const shown = plain ? (item as T) : escapeDeep(item as T);
          out.write(`${cols.map((c) => tsvField(cell(c.value(shown)))).join('\t')}\n`);
          count += 1;
        }
      }
      break;
    }
    case 'table': {
      const rows: T[] = [];
      for await (const page of pages) for (const item of page) rows.push(item);
      count = rows.length;
      if (rows.length > 0) out.write(`${await renderTable(ctx, rows, view.columns ?? genericColumns(rows))}\n`);
      break;
    }
  }
  if (count === 0 && view.empty) ctx.notice(view.empty);
  return count;
}

/**
 * A list through --jq: as -o json, the expression gets the whole array (so the list is read whole
 * first); as -o jsonl, each item, a page at a time, so a stream stays a stream.
 */
async function printThroughJq<T>(
  out: LineBatch,
  ctx: Context,
  items: ListItems<T>,
  mode: 'json' | 'jsonl',
  view: View<T>,
): Promise<number> {
  let count = 0;
  if (mode === 'json') {
    const all = await whole(items);
    count = all.length;
    out.write(jqText(ctx, JSON.stringify(all)));
  } else {
    for await (const page of pagesOf(items)) {
      count += page.length;
      if (page.length > 0) out.write(jqText(ctx, page.map((item) => JSON.stringify(item)).join('\n')));
    }
  }
  if (count === 0 && view.empty) ctx.notice(view.empty);
  return count;
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** No rule between body rows: long lists stay readable and half as tall. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

export async function renderTable<T>(ctx: Context, rows: T[], columns: Column<T>[]): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const paint = paintFor(ctx);
  const cells = rows.map((r) => escapeDeep(r)).map((row) => columns.map((c) => (c.format ? c.format(row, paint) : cell(c.value(row)))));
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
  const natural = draw(columns.map((_, i) => i));
  const width = terminalColumns(ctx.io);
  if (width === undefined || tableWidth(natural.widths) <= width) return natural.text;
  // A column no row fills (a check's error column when nothing failed) says nothing: it goes first.
  const blank = (text: string) => /^-?$/.test(stripVTControlCharacters(text).trim());
  const fitting = columns.map((c, i) => ({ ...c, empty: cells.every((r) => blank(r[i]!)) }));
  const fit = fitColumns(fitting, natural.widths, width);
  const hint = fitHint(fitting, fit, width);
  if (hint) await sayFitHint(ctx, hint, width);
  return draw(fit.keep, fit.colWidths).text;
}

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

/** A fitting hint on stderr, wrapped to the terminal too (between words). */
async function sayFitHint(ctx: Context, hint: string, width: number): Promise<void> {
  const { default: wrapAnsi } = await import('wrap-ansi');
  for (const line of wrapAnsi(hint, width, { hard: true }).split('\n')) ctx.notice(line);
}

/** Runs `fn` with an ora spinner on stderr, only on a TTY and never with --quiet. */
export async function withSpinner<R>(ctx: Context, text: string, fn: () => Promise<R>): Promise<R> {
  // A pty without a size (columns 0: script(1), some CI runners) makes ora redraw without end.
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet || !((ctx.io.stderr as NodeJS.WriteStream).columns > 0)) return fn();
  const { default: ora } = await import('ora');
  const spinner = ora({
    text: escapeControl(text),
    stream: ctx.io.stderr as NodeJS.WriteStream,
    color: 'cyan',
    isEnabled: true,
    discardStdin: false,
  }).start();
  // What the client waits for and for how long ("waiting for api.example.com: 4s of 30s").
  const tick = setInterval(() => {
    const wait = ctx.activity.describeWait();
    spinner.text = escapeControl(wait ? `${text} ${wait}` : text);
  }, 500);
  try {
    return await fn();
  } finally {
    clearInterval(tick);
    spinner.stop();
  }
}

/**
 * One JSON line of a stream a command writes itself (`webhook listen`, `webhook log --follow`),
 * without its newline: the value on one line, or with --jq what the expression makes of it (its
 * results a line each; '' for none).
 */
export function jsonLine(ctx: Context, value: unknown): string {
  if (ctx.globals.jq === undefined) return JSON.stringify(value);
  return jqText(ctx, JSON.stringify(value)).replace(/\n$/, '');
}

/** A key/value line per leaf: a sub-object (`units {"active":0}`) becomes `units.active 0`, so scripts can cut it. */
function tsvPairs(key: string, value: unknown): [string, unknown][] {
  const pairs = Object.entries(flatten(value, key));
  return pairs.length ? pairs : [[key, value]];
}
export * from './status.js';

/** A list streamed a page at a time: one await per page, not per item (10,000-unit exports). */
export interface Paged<T> {
  readonly pages: AsyncIterable<readonly T[]>;
}

/** What printList takes: an array, or a stream of pages. */
export type ListItems<T> = readonly T[] | Paged<T>;

function pagesOf<T>(list: ListItems<T>): AsyncIterable<readonly T[]> | Iterable<readonly T[]> {
  return 'pages' in list ? list.pages : [list as readonly T[]];
}

/** Every item of a list, read to its end. */
async function whole<T>(list: ListItems<T>): Promise<readonly T[]> {
  if (!('pages' in list)) return list as readonly T[];
  const items: T[] = [];
  for await (const page of list.pages) for (const item of page) items.push(item);
  return items;
}
