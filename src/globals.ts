// The global options and the part of the context that every layer may see (a leaf: it imports
// only io.ts types and errors.ts). units/, webhooks/ and output/ take a BaseContext; the full Context in
// src/context/ adds the API client, the config store and prompts, which only commands use.
import type { IO } from './io.js';
import { UsageError } from './errors.js';

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
  /** --jq: a jq expression the JSON output goes through (src/output/jq.ts); -o is then json or jsonl. */
  jq: string | undefined;
}

/** A charge the API confirmed to this run: a unit bought (or replayed by its idempotency key), or extended. */
export interface Charged {
  ref: string;
  kind: 'bought' | 'replayed' | 'extended';
}

/**
 * What the command's API client waits for, as spinners and progress bars say it (src/activity.ts),
 * and what it was charged for, so an output that fails after a purchase can still name it.
 */
export interface ActivityView {
  describeWait(now?: number): string | undefined;
  describeRateWait(now?: number): string | undefined;
  onRateWait(listener: (until: number | undefined) => void): () => void;
  charged(): readonly Charged[];
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
  /** What the command's API client waits for right now. */
  activity: ActivityView;
}

/** An empty variable or setting (PROXYCTL_API_KEY=) counts as unset. */
export function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The one integer parser for flags and arguments: decimal digits only (so "1e2", "0x10", "1.0"
 * and "" are refused, not read as numbers), a leading "-" only when min < 0, within [min, max].
 * Undefined stays undefined (the flag was not given).
 */
export function parseInteger(raw: string, flag: string, min: number, max?: number): number;
export function parseInteger(raw: string | undefined, flag: string, min: number, max?: number): number | undefined;
export function parseInteger(raw: string | undefined, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  const s = raw.trim();
  const n = (min < 0 ? /^-?\d+$/ : /^\d+$/).test(s) ? Number(s) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
  const range = min <= Number.MIN_SAFE_INTEGER ? '' : max >= Number.MAX_SAFE_INTEGER ? ` from ${min} up` : ` from ${min} to ${max}`;
  throw new UsageError(`${flag} must be a whole number${range}, got "${raw}"`);
}

const MINUTES_PER = { w: 7 * 24 * 60, d: 24 * 60, h: 60, m: 1 } as const;

/**
 * The one duration grammar every flag that takes a duration reads (`--expiring-within`, `spend
 * --since/--until`): a bare number is hours (as the API's `expiringWithinHours`), else weeks, days,
 * hours and minutes in any combination (`36h`, `1d12h`, `1w`, `1.5d`, `90m`). Its length in
 * minutes, or undefined when `raw` is not one.
 */
export function durationMinutes(raw: string): number | undefined {
  const s = raw.trim().toLowerCase().replace(/\s+/g, '');
  if (/^\d+(?:\.\d+)?$/.test(s)) return Number(s) * 60;
  if (!/^(?:\d+(?:\.\d+)?[wdhm])+$/.test(s)) return undefined;
  let minutes = 0;
  for (const [, n, unit] of s.matchAll(/(\d+(?:\.\d+)?)([wdhm])/g)) minutes += Number(n) * MINUTES_PER[unit as keyof typeof MINUTES_PER];
  return minutes;
}

/**
 * Hours, wherever they are asked for: a duration (`durationMinutes`) that comes to a whole number of
 * hours, at least 1 (the API counts whole hours). Anything else is exit 2, before any request.
 */
export function parseHours(raw: string, flag: string): number;
export function parseHours(raw: string | undefined, flag: string): number | undefined;
export function parseHours(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const minutes = durationMinutes(raw);
  // A decimal fraction is inexact in binary: a sum a hair off a whole number counts as that number.
  const exact = minutes === undefined ? Number.NaN : minutes / 60;
  const hours = Math.abs(exact - Math.round(exact)) < 1e-9 ? Math.round(exact) : Number.NaN;
  if (Number.isSafeInteger(hours) && hours >= 1) return hours;
  const what = minutes === undefined ? 'a duration' : `${+minutes.toFixed(3)} minutes`;
  throw new UsageError(
    `${flag} must be a whole number of hours, at least 1 (24, 36h, 1d, 1d12h, 1w); got "${raw}"${minutes === undefined ? '' : `, ${what}`}`,
  );
}

/**
 * The environment variables proxyctl reads: the one list behind `proxyctl help environment`, the
 * short list in `proxyctl --help` and the README's "Environment" table (kept in step by a test).
 */
export const ENVIRONMENT: readonly { name: string; meaning: string }[] = [
  { name: 'PROXYCTL_API_KEY', meaning: "API key; overrides the profile's key (keys never go on the command line)" },
  { name: 'PROXYCTL_BASE_URL', meaning: 'API base URL, without /api/reseller/v1 (--base-url)' },
  { name: 'PROXYCTL_PROFILE', meaning: 'stored profile to use (--profile; default: the current one)' },
  { name: 'PROXYCTL_INSECURE_STORAGE', meaning: 'set to 1: login keeps keys in the config file, not the OS keyring (--insecure-storage)' },
  { name: 'PROXYCTL_CONFIG_DIR', meaning: 'directory of the config file, and of the caches in cache/ (default: the OS dirs)' },
  { name: 'PROXYCTL_DEBUG', meaning: 'set to 1: HTTP trace on stderr, the API key redacted (--debug)' },
  {
    name: 'PROXYCTL_LEDGER_URL',
    meaning: "a team's shared ledger, postgres://user:password@host:5432/db (overrides the profile's ledger-url)",
  },
  { name: 'PROXYCTL_WEBHOOK_SECRET', meaning: 'webhook secret for `webhook verify` and `webhook listen` (--secret)' },
  { name: 'NO_COLOR', meaning: 'no colour (--no-color)' },
  { name: 'FORCE_COLOR', meaning: 'colour even when the output is not a terminal' },
  { name: 'CI', meaning: 'set: never prompt (--no-input); a needed answer is a usage error (exit 2)' },
  { name: 'HTTPS_PROXY', meaning: 'proxy for an https base URL (https_proxy also read)' },
  { name: 'HTTP_PROXY', meaning: 'proxy for an http base URL (http_proxy also read)' },
  { name: 'NO_PROXY', meaning: 'hosts reached without the proxy (no_proxy also read)' },
  { name: 'NODE_DISABLE_COMPILE_CACHE', meaning: 'set to 1: no V8 code cache of the CLI (compiled anew on every run)' },
];
