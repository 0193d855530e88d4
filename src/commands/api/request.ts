// `proxyctl api [METHOD] PATH`: the escape hatch, shaped like `gh api` (-X, -f/-F, --input, -H,
// --paginate, -i), with the old `METHOD PATH [--data JSON|@file]` form kept. Every flag is read
// and every file opened before the first request, so bad input is exit 2 with nothing sent. Reads
// retry like every read; anything else is sent once, because the tool cannot know whether it is
// safe to repeat.
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { Input } from './request.command.js';
import { emit, finished, show, showText, type Result, type Shown } from '../../kit/action.js';
import { readAllText } from '../../io.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { outputMode } from '../../output/index.js';
import { escapeControl } from '../../output/escape.js';
import * as shapes from '../../api/shapes.js';
import { type Charging, chargingOperation, confirmApiCharge, refuseInferred, sendCharging } from './charge.js';
import { type Field, fieldsBody, fieldsQuery, parseHeaders, splitField, typedValue } from './fields.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface RawOptions {
  method: string;
  /** The path below /api/reseller/v1, with its query string. */
  path: string;
  /** A JSON value (--data, fields) or the exact text (--input); none for no body. */
  body: { json: unknown } | { text: string } | undefined;
  headers: Record<string, string>;
  paginate: boolean;
  include: boolean;
  /** The request charges the balance (a POST written out, never inferred): priced and confirmed first. */
  charging: Charging | undefined;
}

type Flags = Input['flags'];

async function parseOptions(first: string, second: string | undefined, flags: Flags, ctx: Context): Promise<RawOptions> {
  const stdin = stdinOnce();
  // METHOD PATH (the first form) or PATH with -X.
  const [positionalMethod, rawPath] = second === undefined ? [undefined, first] : [first, second];
  if (positionalMethod !== undefined && flags.method !== undefined && positionalMethod.toUpperCase() !== flags.method.toUpperCase())
    throw new UsageError(`two methods: ${positionalMethod} and -X ${flags.method}; give one`);
  if (second === undefined && METHODS.includes(first.toUpperCase()) && !first.startsWith('/'))
    throw new UsageError(`a path is missing after ${first}, e.g. proxyctl api ${first} /me`);
  const given = positionalMethod ?? flags.method;
  if (given !== undefined && !METHODS.includes(given.toUpperCase()))
    throw new UsageError(`unsupported method "${given}" (use one of: ${METHODS.join(', ')})`);
  const path = positionalMethod === undefined && !rawPath.startsWith('/') ? `/${rawPath}` : rawPath;
  if (!path.startsWith('/') || /\s/.test(path) || path.startsWith('//'))
    throw new UsageError(`the path must start with "/" and contain no spaces, e.g. /me (got "${path}")`);

  if (flags.data !== undefined && flags.input !== undefined) throw new UsageError('--data and --input both give the body; use one');
  const fields: Field[] = [];
  for (const raw of flags.rawField ?? []) {
    const { key, parts, text } = splitField(raw, '-f');
    fields.push({ key, parts, value: text });
  }
  for (const raw of flags.field ?? []) {
    const { key, parts, text } = splitField(raw, '-F');
    fields.push({ key, parts, value: text.startsWith('@') ? await readValue(text.slice(1), `-F ${key}`, ctx, stdin) : typedValue(text) });
  }
  let body: RawOptions['body'];
  if (flags.data !== undefined)
    body = { json: parseJson(flags.data.startsWith('@') ? await readValue(flags.data.slice(1), '--data', ctx, stdin) : flags.data) };
  if (flags.input !== undefined) body = { text: await readValue(flags.input, '--input', ctx, stdin) };
  const paginate = flags.paginate === true;
  const include = flags.include === true;
  // GET, or POST once there is something to send; --paginate reads, so its fields are a query.
  const method = (given ?? (!paginate && (fields.length > 0 || body !== undefined) ? 'POST' : 'GET')).toUpperCase();
  // As gh does: fields are the query of a GET, and of any request whose body is given whole.
  const fieldsInQuery = method === 'GET' || body !== undefined;
  if (fields.length > 0 && !fieldsInQuery) body = { json: fieldsBody(fields) };
  if (paginate && method !== 'GET') throw new UsageError(`--paginate follows the pages of a GET, not ${method}`);
  if (paginate && include) throw new UsageError('--paginate prints one merged document; -i (headers of each page) does not fit in it');
  const headers = parseHeaders(flags.header ?? []);
  const charging = chargingOperation(method, path);
  if (charging && given === undefined)
    refuseInferred(charging, path, fields.length > 0 ? '-f/-F fields' : flags.data !== undefined ? '--data' : '--input');
  return { method, path: fieldsInQuery ? withQuery(path, fieldsQuery(fields)) : path, body, headers, paginate, include, charging };
}

/** The body as a value, to price it: --input's text read as JSON where it is JSON. */
function bodyValue(body: RawOptions['body']): unknown {
  if (body === undefined || 'json' in body) return body?.json;
  try {
    return JSON.parse(body.text);
  } catch {
    return undefined;
  }
}

/** Only one of --data @-, --input - and -F k=@- can have stdin. */
function stdinOnce(): (what: string) => void {
  let taken: string | undefined;
  return (what) => {
    if (taken) throw new UsageError(`${taken} and ${what} both read stdin; only one can`);
    taken = what;
  };
}

async function readValue(file: string, what: string, ctx: Context, stdin: (what: string) => void): Promise<string> {
  if (file === '-') {
    stdin(what);
    return readAllText(ctx.io.stdin);
  }
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${what} file "${file}": ${(err as Error).message}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--data is not valid JSON: ${(err as Error).message}`);
  }
}

/** The path with the fields appended to whatever query string it already has. */
function withQuery(path: string, pairs: [string, string][]): string {
  if (pairs.length === 0) return path;
  const search = new URLSearchParams(pairs).toString();
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

export default async function handler({ args: [first, second], flags, ctx }: Input): Promise<Result> {
  const opts = await parseOptions(first, second, flags, ctx);
  const priced = opts.charging
    ? await confirmApiCharge(ctx, opts.charging, bodyValue(opts.body), `${opts.method} ${opts.path}`)
    : undefined;
  const api = await ctx.api();
  if (opts.paginate) return ctx.globals.jq === undefined ? paginate(ctx, api, opts) : show({ data: await everyItem(api, opts) });
  const send = () =>
    api.request(opts.method, opts.path, shapes.raw, {
      ...(opts.body && 'json' in opts.body ? { body: opts.body.json } : {}),
      ...(opts.body && 'text' in opts.body ? { rawBody: opts.body.text } : {}),
      headers: opts.headers,
      retry: opts.method === 'GET' ? 'read' : 'never',
    });
  const r = opts.charging ? await sendCharging(ctx, opts.charging, priced, send) : await send();
  if (opts.include) await emit(ctx, showText(statusAndHeaders(r.status, r.headers)));
  if (r.data !== undefined) await emit(ctx, shownBody(ctx, r.data));
  return finished(ctx);
}

/** `-i`: what curl -i shows, control characters escaped (the client has redacted an echoed key). */
function statusAndHeaders(status: number, headers: Record<string, string>): string {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd(),
    ...Object.entries(headers).map(([k, v]) => escapeControl(`${k}: ${v}`)),
  ];
  return `${lines.join('\n')}\n\n`;
}

/**
 * `--paginate`: every page of a list, printed as one `{"data": [...]}` as the pages arrive (one
 * page in memory at a time, each write waiting for a slow reader). The client's pacing and retries
 * apply to every page. On Ctrl-C or a failed page the document is closed, so what came is valid
 * JSON, and the run ends as any read does (130, or the failure's exit code).
 */
async function paginate(ctx: Context, api: ApiClient, opts: RawOptions): Promise<number> {
  const pages = pagesOf(api, opts);
  const pretty = outputMode(ctx) !== 'jsonl';
  let count = 0;
  try {
    for await (const page of pages) {
      // One write per page (a slow reader is waited for between pages, not between items).
      let chunk = '';
      for (const item of page.items) {
        const text = pretty ? JSON.stringify(item, null, 2).replace(/^/gm, '    ') : JSON.stringify(item);
        chunk += `${count === 0 ? (pretty ? '{\n  "data": [\n' : '{"data":[') : pretty ? ',\n' : ','}${text}`;
        count += 1;
      }
      if (chunk) await write(ctx, chunk);
    }
  } finally {
    const end = pretty ? (count === 0 ? '{\n  "data": []\n}\n' : '\n  ]\n}\n') : count === 0 ? '{"data":[]}\n' : ']}\n';
    await write(ctx, end);
  }
  return finished(ctx);
}

/** Every page of the list at opts.path, from its `page` parameter on (the first without one). */
function pagesOf(api: ApiClient, opts: RawOptions) {
  const [pathname, search] = splitSearch(opts.path);
  const params = new URLSearchParams(search);
  const start = params.get('page');
  params.delete('page');
  const rest = params.toString();
  return api.pages(rest ? `${pathname}?${rest}` : pathname, shapes.raw, start === null ? {} : { page: start }, {
    headers: opts.headers,
  });
}

/** `--paginate --jq`: the expression sees the one merged document, so it is read whole first. */
async function everyItem(api: ApiClient, opts: RawOptions): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const page of pagesOf(api, opts)) for (const item of page.items) items.push(item);
  return items;
}

function splitSearch(path: string): [string, string] {
  const i = path.indexOf('?');
  return i < 0 ? [path, ''] : [path.slice(0, i), path.slice(i + 1)];
}

/**
 * Writes and, when the stream's buffer is full, waits for the reader before the next page. The
 * one place a handler writes stdout itself: emit does not wait for a slow reader, and a merged
 * document of many pages would pile up in memory behind one.
 */
function write(ctx: Context, text: string): Promise<void> {
  if (ctx.io.stdout.write(text)) return Promise.resolve();
  return new Promise((resolve) => ctx.io.stdout.once('drain', () => resolve()));
}

/**
 * Bodies are printed as JSON whatever the format: pretty for people, one line for jsonl; with
 * --jq, through the expression (the output layer's JSON, which --jq makes json or jsonl).
 */
export function shownBody(ctx: Context, body: unknown): Shown {
  if (ctx.globals.jq !== undefined) return show(body);
  return showText(outputMode(ctx) === 'jsonl' ? JSON.stringify(body) : JSON.stringify(body, null, 2));
}
