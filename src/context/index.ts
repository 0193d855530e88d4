// The one context every command receives. Costly parts (config store, API client, prompts) are
// created lazily, on first use, so a command that does not need them never loads them.
// This folder is the one wiring layer: credentials, API-client construction, login, prompts.
import type { IO } from '../io.js';
import type { ApiClient } from '../api/client.js';
import type { ConfigStore } from '../config/store.js';
import type { Ledger } from '../ledger/index.js';
import { OUTPUT_FORMATS, nonEmpty, type GlobalOptions, type OutputFormat } from '../globals.js';
import { shouldColor } from '../io.js';
import { UsageError } from '../errors.js';
import { escapeControl } from '../output/escape.js';
import { warningLabel } from '../output/stderr-label.js';
import { createPrompt } from './prompt.js';
import { Activity } from '../activity.js';
import type { Context } from './types.js';

export { OUTPUT_FORMATS, nonEmpty, type GlobalOptions, type OutputFormat } from '../globals.js';
export type { Context } from './types.js';

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
  jq?: string;
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
  if (flags.jq !== undefined) {
    if (flags.jq.trim() === '') throw new UsageError('--jq needs a jq expression, e.g. --jq ".[].proxyRef"');
    // What it filters is the JSON: the whole document (-o json, the default with --jq), or each line (-o jsonl).
    if (output !== undefined && output !== 'json' && output !== 'jsonl')
      throw new UsageError(`--jq filters JSON: use it alone, with -o json or with -o jsonl (each line), not with -o ${output}`);
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
    jq: flags.jq,
  };
}

export function createContext(io: IO, globals: GlobalOptions, signal: AbortSignal, now: () => Date = () => new Date()): Context {
  const stderrColor = shouldColor({ flag: globals.color, env: io.env, isTTY: io.stderrIsTTY });
  let api: Promise<ApiClient> | undefined;
  let config: Promise<ConfigStore> | undefined;
  let ledger: Promise<Ledger> | undefined;
  const prompt = createPrompt(io, globals.noInput, signal);
  const ctx: Context = {
    io,
    globals,
    signal,
    now,
    stdoutColor: shouldColor({ flag: globals.color, env: io.env, isTTY: io.stdoutIsTTY }),
    stderrColor,
    get canPrompt() {
      return prompt.available;
    },
    prompt,
    activity: new Activity(),
    notice(message) {
      if (!globals.quiet) io.stderr.write(`${escapeControl(message)}\n`);
    },
    warn(message) {
      io.stderr.write(`${warningLabel(stderrColor)} ${escapeControl(message)}\n`);
    },
    api() {
      api ??= import('./api.js').then((m) => m.createApiClient(ctx, globals.insecure));
      return api;
    },
    config() {
      config ??= import('../config/store.js').then((m) => m.openConfigStore(io.env, (msg) => ctx.warn(msg)));
      return config;
    },
    ledger() {
      ledger ??= import('./ledger.js').then((m) => m.openLedger(ctx));
      return ledger;
    },
  };
  return ctx;
}
