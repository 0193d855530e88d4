// ctx.prompt: the one way a command asks the user something. It decides whether a prompt may be
// shown (stdin is a TTY and neither --no-input nor CI is set), runs @inquirer/prompts on the
// command's streams, maps Ctrl-C to exit 130 and a "no" to exit 2 (or the caller's error).
import type { input, password, search, select } from '@inquirer/prompts';
import { InterruptedError, UsageError } from '../errors.js';
import type { IO } from '../io.js';

type SelectConfig<T> = Parameters<typeof select<T>>[0];
type InputConfig = Parameters<typeof input>[0];
type PasswordConfig = Parameters<typeof password>[0];
type SearchConfig<T> = Parameters<typeof search<T>>[0];

/** A yes/no question. `default` is what Enter alone answers: No unless given (a charge or a deletion never has it). */
export interface ConfirmConfig {
  message: string;
  default?: boolean;
}

/** Prompts bound to the command's streams; each one throws InterruptedError on Ctrl-C. */
export interface Prompter {
  select<T>(config: SelectConfig<T>): Promise<T>;
  /** A type-ahead list: `source(term)` gives the choices for what is typed so far. */
  search<T>(config: SearchConfig<T>): Promise<T>;
  input(config: InputConfig): Promise<string>;
  password(config: PasswordConfig): Promise<string>;
  /**
   * Goes on after "yes"; after "no" throws `declined` (text: a UsageError, exit 2, code not_confirmed).
   * Only y, yes, n and no are answers (any case, spaces trimmed); anything else asks again.
   */
  confirm(config: ConfirmConfig, declined: string | Error): Promise<void>;
}

export interface Prompt {
  /** True when a prompt may be shown: stdin is a TTY and neither --no-input nor CI is set. */
  readonly available: boolean;
  /**
   * Prompts for one flow. Throws `unavailable` when no prompt may be shown (so a script gets the
   * flag it should pass, not a hang); `cancelled` is the message of the exit-130 error on Ctrl-C.
   */
  open(opts: { unavailable: Error; cancelled?: string }): Promise<Prompter>;
}

export function createPrompt(io: IO, noInput: boolean, signal: AbortSignal): Prompt {
  // Asked when a command wants to know (io.stdinIsTTY builds process.stdin), not for every command.
  const available = () => !noInput && io.stdinIsTTY;
  return {
    get available() {
      return available();
    },
    async open({ unavailable, cancelled }) {
      if (!available()) throw unavailable;
      const [inquirer, { Writable }] = await Promise.all([import('@inquirer/prompts'), import('node:stream')]);
      // inquirer ends its output stream when a prompt closes; Node spares process.stderr from that,
      // but not any other stream, so each prompt writes through a fresh shim that never ends stderr.
      const streams = () => {
        const output = new Writable({ write: (chunk, encoding, cb) => void io.stderr.write(chunk, encoding, cb) });
        Object.assign(output, { isTTY: io.stderrIsTTY, columns: io.columns ?? 80 });
        return { input: io.stdin, output, signal };
      };
      async function run<T>(ask: () => Promise<T>): Promise<T> {
        try {
          return await ask();
        } catch (err) {
          const name = (err as Error)?.name;
          if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new InterruptedError(cancelled);
          throw err;
        }
      }
      return {
        select: (config) => run(() => inquirer.select(config, streams())),
        search: (config) => run(() => inquirer.search(config, streams())),
        input: (config) => run(() => inquirer.input(config, streams())),
        password: (config) => run(() => inquirer.password(config, streams())),
        async confirm(config, declined) {
          if (await run(() => strictConfirm(inquirer.input, config, streams()))) return;
          throw typeof declined === 'string' ? new UsageError(declined, { code: 'not_confirmed' }) : declined;
        },
      };
    },
  };
}

/** y/yes → true, n/no → false, nothing → the default; anything else is no answer (undefined). */
export function readYesNo(typed: string, byDefault: boolean): boolean | undefined {
  const answer = typed.trim().toLowerCase();
  if (answer === '') return byDefault;
  if (answer === 'y' || answer === 'yes') return true;
  if (answer === 'n' || answer === 'no') return false;
  return undefined;
}

/**
 * inquirer's own confirm takes any answer not starting with "n" as its default, so `wait` or a
 * stray `clear` typed at "Buy for 68.00 USD? (Y/n)" bought. This one is inquirer's input, checked:
 * only y/yes/n/no or Enter alone (the default) end it; anything else is cleared and asked again.
 */
async function strictConfirm(ask: typeof input, config: ConfirmConfig, streams: Parameters<typeof input>[1]): Promise<boolean> {
  const byDefault = config.default === true;
  const typed = await ask(
    {
      message: config.message,
      validate: (v) => readYesNo(v, byDefault) !== undefined || 'answer y or n',
      // Shown as inquirer's confirm shows itself: the choice hint while asking, Yes/No once answered.
      transformer: (v, { isFinal }) => (isFinal ? (readYesNo(v, byDefault) ? 'Yes' : 'No') : `${byDefault ? '(Y/n)' : '(y/N)'} ${v}`),
      theme: { validationFailureMode: 'clear' },
    },
    streams,
  );
  return readYesNo(typed, byDefault) === true;
}
