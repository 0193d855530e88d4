// Lists: an array, or pages streamed as they arrive, printed as json, jsonl, conn, csv, tsv or a
// table, a page per write.
import type { Writable } from 'node:stream';
import type { BaseContext as Context } from '../globals.js';
import { UsageError } from '../errors.js';
import { isPlainList } from '../net/plain.js';
import { escapeDeep } from './escape.js';
import { csvField, flatKeys, flatten, genericColumns, tsvField } from './fields.js';
import { cell } from './format.js';
// Light: jq itself (jq-wasm) is loaded by the kit, only when --jq is given (prepareJq).
import { jqText } from './jq.js';
import { renderTable } from './table.js';
import { type ListItems, outputMode, type View } from './view.js';

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
