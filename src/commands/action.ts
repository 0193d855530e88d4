// The one command shape. Every verb is a `defineCommand({...})` in its own `<verb>.command.ts`:
// a commander builder (typed by @commander-js/extra-typings, so positionals and flags need no
// hand-written types), its examples, and a lazy `load` of the handler. Registration builds the
// whole tree up front (so `--help` and completion know every command and option) while the
// handler's module is a dynamic import, loaded only when that command runs.
//
// Adding a verb: `<noun>/<verb>.command.ts` (copy units/get.command.ts), its handler `<verb>.ts`
// (copy units/get.ts: typed by `Input` from the definition, returns `show(...)` or an exit code),
// and one entry in `<noun>/index.ts`. Flags that other commands also take come from options.ts.
import type { Command as PlainCommand } from 'commander';
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context, GlobalOptions } from '../context/index.js';
import { createContext, resolveGlobals } from '../context/index.js';
import { ExitCode } from '../errors.js';
import type { IO } from '../io.js';
import type { View } from '../output/index.js';

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
 * - its data, as `show(value, view)` or `showList(rows, view)`: the output layer prints it in the
 *   chosen format (table, json, jsonl, csv, conn) and the exit code is `finished(ctx)`;
 * - or its exit code, when it printed as it went (streams, bulk progress, dry runs, receivers).
 *   That code is final: main() does not second-guess it after Ctrl-C. A handler that stops early
 *   on Ctrl-C and returns normally says so with `finished(ctx)` (130 after an interrupt, else 0);
 *   one whose normal end is Ctrl-C (webhook listen, log --follow, sandbox) returns 0.
 */
export type Result = number | Shown;
export type Handler<Args extends unknown[] = unknown[], Flags extends OptionValues = OptionValues> = (
  input: HandlerInput<Args, Flags>,
) => Promise<Result>;

/** Data for the output layer to print: see `show` and `showList`. */
export interface Shown {
  readonly shown: 'object' | 'list';
  readonly data: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the view matches the data it came with
  readonly view: View<any>;
}

/** One object (a unit, the account): printed by printObject through `view`. */
export function show<T>(data: T, view: View<T> = {}): Shown {
  return { shown: 'object', data, view };
}

/** A list (pools, profiles): printed by printList through `view`. */
export function showList<T>(rows: T[], view: View<T> = {}): Shown {
  return { shown: 'list', data: rows, view };
}

export interface CommandDefinition<Args extends unknown[] = unknown[], Flags extends OptionValues = OptionValues> {
  /** Name, aliases, description, arguments and options: a fresh commander command each call. */
  command: () => Command<Args, Flags>;
  /** Shown under "Examples:" in the command's help. */
  examples?: readonly string[];
  /**
   * The handler, in one of two places. `run`: here, in the definition file, for a verb whose code
   * fits on a screen; it imports what it needs with `await import()` so `--help` loads none of it.
   * `load`: a handler module `<verb>.ts`, imported only when the command runs, for a larger verb.
   */
  run?: Handler<Args, Flags>;
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

/** Adds each definition (and its subcommands) under `parent`, in order. */
export function register(parent: PlainCommand | CommandUnknownOpts, defs: readonly AnyDefinition[], rt: Runtime): void {
  for (const def of defs) {
    const cmd = def.command() as CommandUnknownOpts;
    // What `parent.command(name)` would inherit: output, exit override, help option, suggestions.
    cmd.copyInheritedSettings(parent as CommandUnknownOpts);
    if (def.examples?.length) cmd.addHelpText('after', examples(...def.examples));
    if (def.group) cmd.helpGroup(def.group);
    const { run, load } = def;
    if (run) cmd.action(lazyAction(rt, async () => run));
    else if (load) cmd.action(lazyAction(rt, load));
    if (def.subcommands) register(cmd, def.subcommands, rt);
    (parent as CommandUnknownOpts).addCommand(cmd, { isDefault: def.isDefault === true });
  }
}

function lazyAction(rt: Runtime, load: () => Promise<Handler>) {
  return async (...actionArgs: unknown[]): Promise<void> => {
    const command = actionArgs[actionArgs.length - 1] as CommandUnknownOpts;
    const globals = resolveGlobals(command.optsWithGlobals(), rt.io);
    rt.globals = globals;
    const ctx = createContext(rt.io, globals, rt.signal, rt.now);
    const handler = await load();
    if (ctx.stdoutColor || ctx.stderrColor) await (await import('../output/index.js')).loadPaint();
    const result = await handler({ args: [...command.processedArgs], flags: command.opts(), ctx, command });
    rt.exitCode = typeof result === 'number' ? result : await print(ctx, result);
  };
}

async function print(ctx: Context, result: Shown): Promise<number> {
  const { printList, printObject } = await import('../output/index.js');
  if (result.shown === 'list') await printList(ctx, result.data as unknown[], result.view);
  else await printObject(ctx, result.data, result.view);
  return finished(ctx);
}

/** Help text with examples, appended after the options list (commander adds the last newline). */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
}

/** Lists definitions under one heading in their parent's help (commander's help groups). */
export function inGroup(heading: string, defs: readonly AnyDefinition[]): AnyDefinition[] {
  return defs.map((d) => ({ ...d, group: `${heading}:` }));
}
