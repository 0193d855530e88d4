// `proxyctl api METHOD PATH [--data JSON|@file]`: the escape hatch. Reads retry like every read;
// anything else is sent once, because the tool cannot know whether it is safe to repeat.
import { readFile } from 'node:fs/promises';
import type { Input } from './request.command.js';
import { readAllText } from '../../io.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { assertFormats, outputMode } from '../../output/index.js';
import * as shapes from '../../api/shapes.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface RawOptions {
  method: string;
  path: string;
  body: unknown;
}

export async function parseOptions(method: string, path: string, data: string | undefined, ctx: Context): Promise<RawOptions> {
  const m = method.toUpperCase();
  if (!METHODS.includes(m)) throw new UsageError(`unsupported method "${method}" (use one of: ${METHODS.join(', ')})`);
  if (!path.startsWith('/') || /\s/.test(path) || path.startsWith('//'))
    throw new UsageError(`the path must start with "/" and contain no spaces, e.g. /me (got "${path}")`);
  let body: unknown;
  if (data !== undefined) {
    let text = data;
    if (data.startsWith('@')) {
      const file = data.slice(1);
      try {
        text = file === '-' ? await readAllText(ctx.io.stdin) : await readFile(file, 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read --data file "${file}": ${(err as Error).message}`);
      }
    }
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`--data is not valid JSON: ${(err as Error).message}`);
    }
  }
  return { method: m, path, body };
}

export async function run(opts: RawOptions, ctx: Context): Promise<unknown> {
  const api = await ctx.api();
  const [pathname, search] = splitQuery(opts.path);
  const r = await api.request<unknown>(opts.method, pathname, shapes.raw, {
    query: search,
    ...(opts.body !== undefined ? { body: opts.body } : {}),
    retry: opts.method === 'GET' ? 'read' : 'never',
  });
  return r.data;
}

function splitQuery(path: string): [string, Record<string, string>] {
  const i = path.indexOf('?');
  if (i < 0) return [path, {}];
  return [path.slice(0, i), Object.fromEntries(new URLSearchParams(path.slice(i + 1)))];
}

export default async function request({ args: [method, path], flags, ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const opts = await parseOptions(method, path, flags.data, ctx);
  const body = await run(opts, ctx);
  if (body !== undefined) printBody(ctx, body);
  return 0;
}

/** Bodies are printed as JSON whatever the format: pretty for people, one line for jsonl. */
export function printBody(ctx: Context, body: unknown): void {
  ctx.io.stdout.write(`${outputMode(ctx) === 'jsonl' ? JSON.stringify(body) : JSON.stringify(body, null, 2)}\n`);
}
