// The one command shape. Every verb is two files: `<verb>.command.ts` holds `defineCommand({...})`
// (a commander builder typed by @commander-js/extra-typings, so positionals and flags need no
// hand-written types; its output formats; its examples; a lazy `load` of the handler), and
// `<verb>.ts` holds the handler, `export default async function handler(input: Input)`.
// Registration (`register`) builds only the branch of the command tree the typed words name
// (`commandWords` in src/main.ts): `units list` builds `units` and its `list`, nothing else. A level
// the words do not settle gets every command there and all below it, and `help` and `__complete`
// get the whole tree, so help and completion still know every command and option. A handler's
// module is a dynamic import, loaded only when that command runs.
//
// Adding a verb: copy units/get.command.ts and units/get.ts, and add one entry to
// `<noun>/index.ts`. Flags that other commands also take come from options.ts.
import type { Command as PlainCommand } from 'commander';
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context, GlobalOptions } from '../context/index.js';
import { createContext, resolveGlobals } from '../context/index.js';
import { ExitCode, UsageError } from '../errors.js';
import { escapeControl } from '../output/escape.js';
import type { IO } from '../io.js';
import type { ListItems, View } from '../output/index.js';
import type { OutputFormat } from '../globals.js';

export interface HandlerInput<Args extends unknown[] = unknown[], Flags extends OptionValues = OptionValues> {
  /** Positional arguments, typed by the definition (a variadic one is a string[]). */
  args: Args;
  /** This command's own flags, typed by the definition (globals are in ctx.globals). */
  flags: Flags;
  ctx: Context;
  command: CommandUnknownOpts;
}

/**
 * What a handler returns, one rule for all:
 * - what to show, as `show(value, view)`, `showList(rows or pages, view)` or `showText(text)`: the
 *   output layer prints it in the chosen format (table, json, jsonl, csv, conn) and the exit code
 *   is `finished(ctx)`;
 * - or its exit code, when it printed as it went (streams, bulk progress, dry runs, receivers),
 *   each piece through `emit(ctx, show…(…))`, the same printer. That code is final: main() does
 *   not second-guess it after Ctrl-C. A handler that stops early on Ctrl-C and returns normally
 *   says so with `finished(ctx)` (130 after an interrupt, else 0); one whose normal end is Ctrl-C
 *   (webhook listen, log --follow, sandbox) returns 0.
 */
export type Result = number | Shown;
export type Handler<Args extends unknown[] = unknown[], Flags extends OptionValues = OptionValues> = (
  input: HandlerInput<Args, Flags>,
) => Promise<Result>;

/** Data for the output layer to print: see `show`, `showList` and `showText`. */
export interface Shown {
  readonly shown: 'object' | 'list' | 'text';
  readonly data: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the view matches the data it came with
  readonly view: View<any>;
}

/** One object (a unit, the account): printed by printObject through `view`. */
export function show<T>(data: T, view: View<T> = {}): Shown {
  return { shown: 'object', data, view };
}

/** A list (pools, profiles), whole or as pages that stream: printed by printList through `view`. */
export function showList<T>(rows: ListItems<T>, view: View<T> = {}): Shown {
  return { shown: 'list', data: rows, view };
}

/**
 * Text the command has already rendered (a completion script, a setting's value, one line of a
 * stream), written as it is with a final newline added when it lacks one. The caller escapes what
 * came from the network.
 */
export function showText(text: string): Shown {
  return { shown: 'text', data: text, view: {} };
}

/**
 * Prints now what a handler would otherwise return, for one that prints as it goes. Returns the
 * number of items a list printed (0 for an object or text).
 */
export async function emit(ctx: Context, result: Shown): Promise<number> {
  if (result.shown === 'text') {
    const text = result.data as string;
    ctx.io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    return 0;
  }
  const { printList, printObject } = await import('../output/index.js');
  if (result.shown === 'list') return printList(ctx, result.data as ListItems<unknown>, result.view);
  await printObject(ctx, result.data, result.view);
  return 0;
}

export interface CommandDefinition<Args extends unknown[] = unknown[], Flags extends OptionValues = OptionValues> {
  /** Name, aliases, description, arguments and options: a fresh commander command each call. */
  command: () => Command<Args, Flags>;
  /** Shown under "Examples:" in the command's help. */
  examples?: readonly string[];
  /**
   * The `-o` formats it prints, checked before the handler loads (so before any request); any
   * other is exit 2 naming these. A function of the flags (log --follow streams) and positionals
   * (`pools US-12` shows one pool) where they decide. Left out by a command whose output is not data
   * (a script, a setting, help): `-o` is ignored.
   */
  formats?: readonly OutputFormat[] | ((flags: Flags, args: Args) => readonly OutputFormat[]);
  /** The handler module `<verb>.ts` (its default export), imported only when the command runs. */
  load?: () => Promise<Handler<Args, Flags>>;
  /** Run when the parent is given no subcommand (`proxyctl pools` = `pools list`). */
  isDefault?: boolean;
  /** The heading it is listed under in its parent's help ("Units:"); set with `inGroup`. */
  group?: string;
  subcommands?: readonly AnyDefinition[];
}

// A list of definitions holds many argument and flag types.
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous registry
export type AnyDefinition = CommandDefinition<any, any>;

/** The input type of a command's handler, read off its builder. */
export type InputOf<B> = B extends () => Command<infer A, infer F> ? HandlerInput<A, F> : never;

export function defineCommand<Args extends unknown[], Flags extends OptionValues>(
  def: CommandDefinition<Args, Flags>,
): CommandDefinition<Args, Flags> {
  return def;
}

/** `finished(ctx)`: the exit code of a handler that ran to its end, 130 if Ctrl-C cut it short. */
export function finished(ctx: Context): number {
  return ctx.signal.aborted ? ExitCode.interrupted : ExitCode.ok;
}

/** What main() shares with the actions it registers. */
export interface Runtime {
  io: IO;
  signal: AbortSignal;
  now: () => Date;
  /** The exit code the handler returned. */
  exitCode: number;
  /** Set once an action has resolved the global options; error rendering reads it. */
  globals: GlobalOptions | undefined;
}

/**
 * Adds each definition (and its subcommands) under `parent`, in order. With `route` (the command
 * words typed, see commandWords), a level where the next word names one definition gets that one
 * alone: the command run, its help and its errors need nothing else, and building the ~80 others
 * is a good part of a command's start (bench/RESULTS.md). A level the words do not settle (no
 * word left, or one that names nothing: "did you mean", a parent's help) gets every definition.
 */
export function register(
  parent: PlainCommand | CommandUnknownOpts,
  defs: readonly AnyDefinition[],
  rt: Runtime,
  route?: readonly string[],
): void {
  const word = route?.[0];
  // Built in order until one is named by the word (`units` is the first at the top level): the
  // ones after it are never built.
  const built: (readonly [AnyDefinition, CommandUnknownOpts])[] = [];
  let named: (typeof built)[number] | undefined;
  for (const def of defs) {
    const pair = [def, def.command() as CommandUnknownOpts] as const;
    built.push(pair);
    if (word !== undefined && (pair[1].name() === word || pair[1].aliases().includes(word))) {
      named = pair;
      break;
    }
  }
  if (!named) for (const def of defs.slice(built.length)) built.push([def, def.command() as CommandUnknownOpts] as const);
  for (const [def, cmd] of named ? [named] : built) {
    // What `parent.command(name)` would inherit: output, exit override, help option, suggestions.
    cmd.copyInheritedSettings(parent as CommandUnknownOpts);
    if (def.examples?.length) cmd.addHelpText('after', examples(...def.examples));
    if (def.group) cmd.helpGroup(def.group);
    if (def.load) cmd.action(lazyAction(rt, def as CommandDefinition));
    if (def.subcommands) register(cmd, def.subcommands, rt, named ? route?.slice(1) : undefined);
    (parent as CommandUnknownOpts).addCommand(cmd, { isDefault: def.isDefault === true });
  }
}

function lazyAction(rt: Runtime, def: CommandDefinition) {
  return async (...actionArgs: unknown[]): Promise<void> => {
    const command = actionArgs[actionArgs.length - 1] as CommandUnknownOpts;
    const asked = resolveGlobals(command.optsWithGlobals(), rt.io);
    // Errors are rendered as asked: as JSON only with -o json/jsonl, not because --jq prints JSON.
    rt.globals = asked;
    const flags = command.opts();
    const args = [...command.processedArgs];
    const formats = typeof def.formats === 'function' ? def.formats(flags, args) : def.formats;
    const globals = asked.jq === undefined ? asked : withJq(asked, formats);
    if (formats && globals.output !== undefined && !formats.includes(globals.output)) {
      throw new UsageError(`-o ${globals.output} is not available for this command (use one of: ${formats.join(', ')})`);
    }
    const jq = globals.jq === undefined ? undefined : await import('../output/jq.js');
    await jq?.prepareJq(globals.jq as string);
    const ctx = createContext(rt.io, globals, rt.signal, rt.now);
    const handler = await (def.load as () => Promise<Handler>)();
    if (ctx.stdoutColor || ctx.stderrColor) await (await import('../output/index.js')).loadPaint();
    try {
      const result = await handler({ args, flags, ctx, command });
      if (typeof result === 'number') rt.exitCode = result;
      else {
        await emit(ctx, result);
        rt.exitCode = finished(ctx);
      }
    } finally {
      // Whatever ended the command, what it paid for is named when its output failed.
      if (jq?.jqFailed()) sayCharged(ctx);
    }
    // The command ran, but --jq failed on what it printed (said on stderr as it happened): exit 2,
    // unless money was spent, which a script must never take for a usage error and run again.
    if (jq?.jqFailed() && (rt.exitCode === ExitCode.ok || rt.exitCode === ExitCode.usage))
      rt.exitCode = ctx.activity.charged().length > 0 ? ExitCode.partialFailure : ExitCode.usage;
  };
}

/**
 * After an output failure (--jq failed on the data), the units the run was charged for, on stderr
 * and never hidden by --quiet, one group a line: "bought: PRX-1, PRX-2". Nothing when nothing was charged.
 */
function sayCharged(ctx: Context): void {
  const charged = ctx.activity.charged();
  if (charged.length === 0) return;
  const groups: [string, string[]][] = [
    ['bought', charged.filter((c) => c.kind === 'bought').map((c) => c.ref)],
    ['bought earlier (replayed by key, not charged again)', charged.filter((c) => c.kind === 'replayed').map((c) => c.ref)],
    ['extended', charged.filter((c) => c.kind === 'extended').map((c) => c.ref)],
  ];
  const lines = groups.filter(([, refs]) => refs.length > 0).map(([what, refs]) => `${what}: ${refs.join(', ')}`);
  ctx.io.stderr.write(
    `the charge went through; only its output failed (exit 10), so do not run it again to buy or extend them:\n${lines
      .map((l) => `  ${escapeControl(l)}`)
      .join('\n')}\n`,
  );
}

/**
 * --jq on a command that prints JSON: without -o, the JSON it has (the document, or the lines of a
 * stream that prints only jsonl). A command that prints no JSON refuses it, before any request.
 */
function withJq(globals: GlobalOptions, formats: readonly OutputFormat[] | undefined): GlobalOptions {
  if (!formats || !(formats.includes('json') || formats.includes('jsonl')))
    throw new UsageError('--jq is not available for this command: it prints no JSON');
  return { ...globals, output: globals.output ?? (formats.includes('json') ? 'json' : 'jsonl') };
}

/** Help text with examples, appended after the options list (commander adds the last newline). */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
}

/** Lists definitions under one heading in their parent's help (commander's help groups). */
export function inGroup(heading: string, defs: readonly AnyDefinition[]): AnyDefinition[] {
  return defs.map((d) => ({ ...d, group: `${heading}:` }));
}
