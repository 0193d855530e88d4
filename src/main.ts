// main(argv, io) → exit code. Builds the commander tree, runs one command, and turns whatever
// it threw into the contract's exit code and a message on stderr. Never touches `process`.
import { Command, CommanderError, Option } from 'commander';
import type { IO } from './io.js';
import { shouldColor } from './io.js';
import { OUTPUT_FORMATS, resolveGlobals } from './context/index.js';
import { ENVIRONMENT } from './globals.js';
import type { GlobalOptions } from './context/index.js';
import { ApiError, CliError, ExitCode, InterruptedError, NotAppliedError, exitCodeFor, errorObject } from './errors.js';
import { VERSION } from './version.js';
import { escapeControl } from './output/escape.js';
import { paintWhen } from './output/format.js';
import type { Runtime } from './kit/action.js';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { examples, register } from './kit/action.js';
import { commands } from './commands/index.js';
import { TOPICS } from './commands/help/help.command.js';

export interface MainOptions {
  /** Aborted on SIGINT by src/cli.ts. */
  signal?: AbortSignal;
  now?: () => Date;
}

/** The whole tree, or with `argv` only the branch its command words name (see commandWords). */
export function buildProgram(rt: Runtime, argv?: readonly string[]): Command {
  const { io } = rt;
  const program = new Command('proxyctl');
  program
    .description('Buy and manage Reseller Proxy API units, catalogue, account and webhooks.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // An option commander does not know is named without the value typed after `=`: that
      // value may be a key (`--api-key=sk_…`), which must never be printed back.
      outputError: (s, write) => write(s.replace(/(unknown option '[^'=\s]+)=[^']*'/g, "$1=…'")),
    })
    .showSuggestionAfterError(true)
    // Commander stops wrapping a help page whose widest entry leaves under 40 columns for the
    // text (`api [options] <path-or-method> [path]` did, at 80 columns): wrap down to 20.
    .configureHelp({ minWidthToWrap: 20 })
    .optionsGroup('Global options:')
    .option('--profile <name>', 'stored profile to use (env PROXYCTL_PROFILE)')
    .option('--base-url <url>', 'API base URL, without /api/reseller/v1 (env PROXYCTL_BASE_URL)')
    .addOption(new Option('-o, --output <format>', 'output format').choices([...OUTPUT_FORMATS]))
    .option('--json', 'same as -o json')
    .option('--jq <expr>', 'filter the JSON output with a jq expression (jq 1.8, built in); strings print raw')
    .option('--no-color', 'disable colour (also NO_COLOR; FORCE_COLOR forces it)')
    .option('-q, --quiet', 'only data on stdout, no notices')
    .option('--debug', 'HTTP trace on stderr, API key redacted (env PROXYCTL_DEBUG=1)')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-input', 'never prompt (also when CI is set)')
    .option('--timeout <seconds>', 'per-request timeout in seconds (default 30)')
    .option(
      '--insecure',
      "allow sending the API key over plain http to a non-loopback host; units check: skip the target's certificate check",
    )
    .addHelpText(
      'after',
      examples(
        'proxyctl login',
        'proxyctl units create --pool US-12 --period 7d',
        'proxyctl units list --all -o conn > proxies.txt',
        'proxyctl pools --country US --json | jq -r ".[].poolId"',
      ),
    );
  register(program, commands, rt, argv && commandWords(argv, program.options));
  // Built when the help is printed, not with every command's start.
  program.addHelpText('after', () => helpTopics(program));
  program.addHelpText('afterAll', ({ command }) => (command === program ? '' : globalFlagsLine(program)));
  return program;
}

/**
 * The command words of argv (`units list` in `--json units list --all`), for building only the
 * command run (see register). The global options (`globals`, the program's own) are stepped over,
 * with their values; the words end at any other option: whether the word after it is that
 * option's value or a command is the command's to say, so what follows gets the whole level.
 * Undefined where the whole tree is needed: `help` and the completion entry point walk it.
 */
export function commandWords(argv: readonly string[], globals: readonly Option[]): string[] | undefined {
  const takesValue = new Map<string, boolean>();
  for (const o of globals) for (const flag of [o.short, o.long]) if (flag) takesValue.set(flag, o.required || o.optional);
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('-')) {
      words.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const value = takesValue.get(eq > 0 ? a.slice(0, eq) : a);
    if (value === undefined) break;
    if (value && eq < 0) i++;
  }
  return words[0] === 'help' || words[0] === '__complete' ? undefined : words;
}

/** The end of `proxyctl --help`: the help topics, and the environment in one line. */
function helpTopics(program: Command): string {
  const width = Math.max(...Object.keys(TOPICS).map((t) => t.length));
  const topics = Object.entries(TOPICS).map(([name, about]) => `  ${name.padEnd(width)}  ${about} (proxyctl help ${name})`);
  const env = `Environment: ${ENVIRONMENT.map((e) => e.name).join(', ')}. API keys are never accepted on the command line.`;
  return `\nHelp topics:\n${topics.join('\n')}\n\n${wrapped(env, program)}`;
}

/** Under every subcommand's help: the global flags it also takes, named (they are described in `proxyctl --help`). */
function globalFlagsLine(program: Command): string {
  const flags = program.options
    .filter((o) => o.long !== '--version' && o.long !== '--help')
    .map((o) => (o.short ? `${o.short}/${o.long}` : o.long));
  return `\n${wrapped(`Global options (see proxyctl --help): ${flags.join(', ')}.`, program)}`;
}

/** Text wrapped to the help's width, the way commander wraps descriptions. */
function wrapped(text: string, program: Command): string {
  return program.createHelp().boxWrap(text, 80);
}

export async function main(argv: readonly string[], io: IO, opts: MainOptions = {}): Promise<number> {
  const signal = opts.signal ?? new AbortController().signal;
  const rt: Runtime = { io, signal, now: opts.now ?? (() => new Date()), exitCode: ExitCode.ok, globals: undefined };
  const program = buildProgram(rt, argv);
  if (argv.length === 0) {
    io.stdout.write(program.helpInformation());
    return ExitCode.ok;
  }
  // The hidden entry point the shell completion scripts call on TAB (see commands/completion/complete.ts).
  if (argv[0] === '__complete')
    return (await import('./commands/completion/complete.js')).complete(
      program as unknown as CommandUnknownOpts,
      argv.slice(1),
      io,
      rt.now().getTime(),
    );
  try {
    await program.parseAsync([...argv], { from: 'user' });
    // The handler's exit code is final, Ctrl-C or not (see Handler in src/kit/action.ts).
    return rt.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version "exit" with 0; every parse error (unknown command or option,
      // missing argument, bad choice) is a usage error. Commander already printed it.
      return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    const e = signal.aborted && !(err instanceof CliError) ? new InterruptedError() : err;
    await reportError(e, io, rt.globals ?? fallbackGlobals(argv, io));
    return exitCodeFor(e);
  }
}

/** Globals for rendering an error thrown before any action resolved them. */
function fallbackGlobals(argv: readonly string[], io: IO): GlobalOptions {
  const json =
    argv.includes('--json') ||
    argv.some((a, i) => (a === '-o' || a === '--output') && argv[i + 1] === 'json') ||
    argv.includes('--output=json');
  try {
    return resolveGlobals({ json, debug: argv.includes('--debug'), color: !argv.includes('--no-color') }, io);
  } catch {
    return resolveGlobals({ json }, { ...io, env: {} });
  }
}

export async function reportError(err: unknown, io: IO, globals: GlobalOptions): Promise<void> {
  if (globals.output === 'json' || globals.output === 'jsonl') {
    io.stderr.write(`${JSON.stringify(errorObject(err))}\n`);
    return;
  }
  const color = shouldColor({ flag: globals.color, env: io.env, isTTY: io.stderrIsTTY });
  const { red, dim } = paintWhen(color);
  const code = exitCodeFor(err);
  // Messages, codes and request ids can come from the server: shown escaped, never obeyed.
  const safe = escapeControl;
  let line: string;
  if (code === ExitCode.unexpected) {
    const msg = err instanceof Error ? err.message : String(err);
    const rid = err instanceof ApiError && err.requestId ? ` (request id ${err.requestId})` : '';
    line = `${red('error:')} unexpected error: ${safe(msg + rid)}\nThis is a bug in proxyctl; please report it with the command you ran.`;
    if (globals.debug && err instanceof Error && err.stack) line += `\n${dim(err.stack.split('\n').map(safe).join('\n'))}`;
  } else {
    const e = err as CliError;
    const details: string[] = [];
    if (e.code) details.push(`code ${e.code}`);
    if (err instanceof ApiError) {
      // A refusal made before any request (or without one answering it) names no HTTP status.
      if (err.answered) details.push(`HTTP ${err.status}`);
      if (err.requestId) details.push(`request id ${err.requestId}`);
    }
    if (err instanceof NotAppliedError && err.requestId) details.push(`request id ${err.requestId}`);
    line = `${red('error:')} ${safe(e.message)}${details.length ? ` ${dim(safe(`(${details.join(', ')})`))}` : ''}`;
    if (e.hint) line += `\n${safe(e.hint)}`;
  }
  io.stderr.write(`${line}\n`);
}
