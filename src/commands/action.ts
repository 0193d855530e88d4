// Commands are registered up front (so `--help` knows them all) but their code is a dynamic
// import, loaded only when that command runs: `proxyctl --help` never loads undici or inquirer.
import type { Command } from 'commander';
import type { Context, GlobalOptions } from '../context/index.js';
import { createContext, resolveGlobals } from '../context/index.js';
import type { IO } from '../io.js';

export interface HandlerInput<F = Record<string, unknown>> {
  /** Positional arguments as commander processed them (a variadic one is an array). */
  args: unknown[];
  /** This command's own flags (globals are in ctx.globals). */
  flags: F;
  ctx: Context;
  command: Command;
}

/** A command module's default export. Returns the exit code (void = 0). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (input: HandlerInput<any>) => Promise<number | void>;

/** What main() shares with the actions it registers. */
export interface Runtime {
  io: IO;
  signal: AbortSignal;
  now: () => Date;
  exitCode: number;
  /**
   * True when the handler returned an explicit exit code: it has decided how it ends, even after
   * Ctrl-C (a server that shuts down cleanly on SIGTERM exits 0). A void return after an
   * interrupt stays 130.
   */
  exitCodeExplicit?: boolean;
  /** Set once an action has resolved the global options; error rendering reads it. */
  globals: GlobalOptions | undefined;
}

export function lazyAction(rt: Runtime, load: () => Promise<{ default: Handler }>) {
  return async (...actionArgs: unknown[]): Promise<void> => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const globals = resolveGlobals(command.optsWithGlobals(), rt.io);
    rt.globals = globals;
    const ctx = createContext(rt.io, globals, rt.signal, rt.now);
    const mod = await load();
    const code = await mod.default({ args: [...command.processedArgs], flags: command.opts(), ctx, command });
    rt.exitCode = typeof code === 'number' ? code : 0;
    rt.exitCodeExplicit = typeof code === 'number';
  };
}

/** Help text with examples, appended after the options list. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
