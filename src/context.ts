// The one context every command receives. Costly parts (config store, API client, prompts) are
// created lazily, on first use, so a command that does not need them never loads them.
import type { IO } from './io.js';
import type { ApiClient } from './api/client.js';
import type { ConfigStore } from './config/store.js';
import { shouldColor } from './io.js';
import { UsageError } from './errors.js';
import { escapeControl } from './output/escape.js';
import { paintWhen } from './output/format.js';

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

export interface Context {
  io: IO;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C: stop starting new work, let in-flight work settle. */
  signal: AbortSignal;
  now(): Date;
  /** Colour decisions per stream. */
  stdoutColor: boolean;
  stderrColor: boolean;
  /** True when a prompt may be shown: stdin is a TTY and neither --no-input nor CI is set. */
  canPrompt: boolean;
  /** Human notice on stderr (suppressed by --quiet). */
  notice(message: string): void;
  /** Warning on stderr (always shown). */
  warn(message: string): void;
  /** The API client (undici loads on first call). Throws exit-3 errors when no key is configured. */
  api(): Promise<ApiClient>;
  /** Profiles and caches (the config file is read on first call). */
  config(): Promise<ConfigStore>;
}

export interface RawGlobalFlags {
  profile?: string;
  baseUrl?: string;
  output?: string;
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  debug?: boolean;
  yes?: boolean;
  input?: boolean;
  timeout?: string;
  insecure?: boolean;
}

const DEFAULT_TIMEOUT_SECONDS = 30;

export function resolveGlobals(flags: RawGlobalFlags, io: IO): GlobalOptions {
  const env = io.env;
  let output: OutputFormat | undefined;
  if (flags.output !== undefined) {
    if (!(OUTPUT_FORMATS as readonly string[]).includes(flags.output)) {
      throw new UsageError(`unknown output format "${flags.output}" (use one of: ${OUTPUT_FORMATS.join(', ')})`);
    }
    output = flags.output as OutputFormat;
  }
  if (flags.json) {
    if (output !== undefined && output !== 'json') {
      throw new UsageError(`--json conflicts with -o ${output}`);
    }
    output = 'json';
  }
  let timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  if (flags.timeout !== undefined) {
    const t = Number(flags.timeout);
    if (!Number.isFinite(t) || t <= 0 || t > 3600) {
      throw new UsageError(`--timeout must be a number of seconds above 0 and at most 3600, got "${flags.timeout}"`);
    }
    timeoutSeconds = t;
  }
  const envDebug = env.PROXYCTL_DEBUG;
  return {
    profile: flags.profile ?? nonEmpty(env.PROXYCTL_PROFILE),
    baseUrl: flags.baseUrl ?? nonEmpty(env.PROXYCTL_BASE_URL),
    output,
    color: flags.color !== false,
    quiet: flags.quiet === true,
    debug: flags.debug === true || (envDebug !== undefined && envDebug !== '' && envDebug !== '0'),
    yes: flags.yes === true,
    noInput: flags.input === false || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0'),
    timeoutMs: Math.round(timeoutSeconds * 1000),
    insecure: flags.insecure === true,
  };
}

/** An empty variable or setting (PROXYCTL_API_KEY=) counts as unset. */
export function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

export function createContext(io: IO, globals: GlobalOptions, signal: AbortSignal, now: () => Date = () => new Date()): Context {
  const stderrColor = shouldColor({ flag: globals.color, env: io.env, isTTY: io.stderrIsTTY });
  let api: Promise<ApiClient> | undefined;
  let config: Promise<ConfigStore> | undefined;
  const ctx: Context = {
    io,
    globals,
    signal,
    now,
    stdoutColor: shouldColor({ flag: globals.color, env: io.env, isTTY: io.stdoutIsTTY }),
    stderrColor,
    canPrompt: io.stdinIsTTY && !globals.noInput,
    notice(message) {
      if (!globals.quiet) io.stderr.write(`${escapeControl(message)}\n`);
    },
    warn(message) {
      io.stderr.write(`${paintWhen(stderrColor).yellow('warning:')} ${escapeControl(message)}\n`);
    },
    api() {
      api ??= import('./api/index.js').then((m) => m.createApiClient(ctx, globals.insecure));
      return api;
    },
    config() {
      config ??= import('./config/store.js').then((m) => m.openConfigStore(io.env, (msg) => ctx.warn(msg)));
      return config;
    },
  };
  return ctx;
}
