// The global options and the part of the context that every layer may see (a leaf: it imports
// only types from io.ts). units/, webhooks/ and output/ take a BaseContext; the full Context in
// src/context/ adds the API client, the config store and prompts, which only commands use.
import type { IO } from './io.js';

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv', 'conn'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Global options after flag > environment > default precedence has been applied. */
export interface GlobalOptions {
  profile: string | undefined;
  baseUrl: string | undefined;
  /** The format asked for with -o/--json; undefined means "table for people" (the default). */
  output: OutputFormat | undefined;
  color: boolean;
  quiet: boolean;
  debug: boolean;
  yes: boolean;
  noInput: boolean;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /** Allow sending the key over plain http to a non-loopback host. */
  insecure: boolean;
}

export interface BaseContext {
  io: IO;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C: stop starting new work, let in-flight work settle. */
  signal: AbortSignal;
  now(): Date;
  /** Colour decisions per stream. */
  stdoutColor: boolean;
  stderrColor: boolean;
  /** Human notice on stderr (suppressed by --quiet). */
  notice(message: string): void;
  /** Warning on stderr (always shown). */
  warn(message: string): void;
}

/** An empty variable or setting (PROXYCTL_API_KEY=) counts as unset. */
export function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}
