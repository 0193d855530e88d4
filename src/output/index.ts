// The output layer: commands hand over rows or objects; this renders table (cli-table3 on a TTY,
// tab-separated when piped), json, jsonl, csv or conn. Data to stdout, notices to stderr.
// BaseContext: the output layer sees streams, globals and colour, never the API client or config.
//
// This module only gathers the layer's parts for its importers, one file each:
//   view.ts       Column, View, ListItems and the output mode
//   list.ts       printList: a list or a stream of pages in every format
//   object.ts     printObject: one object, a key/value table for people
//   table.ts      renderTable (cli-table3), narrowed by fit.ts
//   fields.ts     columns and csv fields taken from the data itself
//   paint.ts      paintFor/loadPaint (chalk)
//   spinner.ts    withSpinner (ora)
//   json-line.ts  jsonLine for streams a command writes itself
// Heavy packages (cli-table3, ora, chalk, wrap-ansi) are loaded with import() only where used.

export * from './format.js';
export * from './escape.js';
export * from './status.js';
export { terminalColumns } from './fit.js';
export { type Column, type ListItems, type Mode, outputMode, type Paged, type View } from './view.js';
export { loadPaint, paintFor } from './paint.js';
export { withExtraFieldNames, withExtraFields } from './fields.js';
export { printList } from './list.js';
export { renderTable } from './table.js';
export { printObject } from './object.js';
export { withSpinner } from './spinner.js';
export { jsonLine } from './json-line.js';
