// What a command hands the output layer: the rows or object, and a View saying how to show them
// (table columns, the conn line, csv fields, the empty-list notice); and which mode prints them.
import type { BaseContext as Context, OutputFormat } from '../globals.js';
import type { Paint } from './format.js';

export interface Column<T> {
  header: string;
  /** The value for csv and for tables when no `format` is given. */
  value: (row: T) => unknown;
  /** How the value looks in a human table (may colour). */
  format?: (row: T, paint: Paint) => string;
  /**
   * A shorter rendering for a table wider than the terminal (a timestamp to the minute, `shortTime`):
   * used before any column is hidden, so a long timestamp shortens before a column with the answer goes.
   */
  compact?: ((row: T, paint: Paint) => string) | undefined;
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

/** A list streamed a page at a time: one await per page, not per item (10,000-unit exports). */
export interface Paged<T> {
  readonly pages: AsyncIterable<readonly T[]>;
}

/** What printList takes: an array, or a stream of pages. */
export type ListItems<T> = readonly T[] | Paged<T>;

/** table | tsv (a table on a non-TTY without -o) | json | jsonl | csv | conn */
export type Mode = Exclude<OutputFormat, 'table'> | 'table' | 'tsv';

export function outputMode(ctx: Context): Mode {
  const f = ctx.globals.output;
  if (f === undefined) return ctx.io.stdoutIsTTY ? 'table' : 'tsv';
  return f;
}
