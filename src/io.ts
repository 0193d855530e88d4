// The IO object handed to every command: streams, TTY facts and environment. Only src/cli.ts
// builds it from `process`; tests build it from in-memory streams.
import type { Readable, Writable } from 'node:stream';

export type Env = Readonly<Record<string, string | undefined>>;

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: Env;
  /** Terminal width for tables and bars; undefined when not a terminal. */
  columns?: number | undefined;
}

/**
 * Whether to colour a stream. Order: --no-color, then NO_COLOR (any non-empty value, per
 * no-color.org), then FORCE_COLOR (0/false disable, anything else enables), then the TTY.
 */
export function shouldColor(opts: { flag: boolean; env: Env; isTTY: boolean }): boolean {
  if (!opts.flag) return false;
  if (opts.env.NO_COLOR !== undefined && opts.env.NO_COLOR !== '') return false;
  const force = opts.env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (opts.env.TERM === 'dumb') return false;
  return opts.isTTY;
}

export function write(stream: Writable, text: string): void {
  stream.write(text);
}

/** All of a stream as text (stdin for --api-key-stdin or --data @-). */
export async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}
