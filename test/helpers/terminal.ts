// The built binary on a real terminal: script(1) gives it a pty for stdin, stdout and stderr
// (both arrive on the one screen). Prompts are answered with `key`, after `waitForText` saw them.
// main() in-process on a fake TTY is watched the same way (`fakeTerminal`).
import type { PassThrough } from 'node:stream';
import { execa, type ResultPromise } from 'execa';
import { expect } from 'vitest';
import { BIN, cleanEnv } from './cli.js';
import type { FakeIO } from './in-process.js';

/** A terminal a test watches: what it drew so far, a wait for a text, and keys typed into it. */
export interface Watched {
  screen(): string;
  /** Resolves with true once `text` shows after position `from`, false if the program ended first. */
  until(text: string | RegExp, from?: number): Promise<boolean>;
  key(s: string): void;
}

/**
 * Waits for `text` to be drawn after position `from` (0 unless given), then asserts it was, with
 * the screen in the failure: the wait wakes on each chunk drawn and on the program's end, never
 * on a fixed sleep, and a program that ends without drawing it fails at once.
 */
export async function waitForText(t: Watched, text: string | RegExp, from = 0): Promise<void> {
  const seen = await t.until(text, from);
  expect(seen, `waited for ${String(text)} on:\n${t.screen()}`).toBe(true);
}

/** `until` over a growing screen: each waiter looks again when `wake` is called (new text, or the end). */
function watch(screen: () => string) {
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  return {
    wake,
    end() {
      ended = true;
      wake();
    },
    until(text: string | RegExp, from = 0): Promise<boolean> {
      return new Promise((resolve) => {
        const check = () => {
          const rest = screen().slice(from);
          if (typeof text === 'string' ? rest.includes(text) : text.test(rest)) return done(true);
          if (ended) return done(false);
        };
        const done = (v: boolean) => {
          waiters.delete(check);
          resolve(v);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/**
 * main() in-process on a fake TTY (`fakeIO({ tty: true })`) as a watched terminal: its screen is
 * stderr, where prompts draw; `run` is main()'s promise, whose end wakes every wait.
 */
export function fakeTerminal(io: FakeIO, run: Promise<unknown>): Watched {
  const w = watch(io.err);
  io.stderr.on('data', w.wake);
  run.then(w.end, w.end);
  return {
    screen: io.err,
    until: w.until,
    key(s) {
      (io.stdin as PassThrough).write(s);
    },
  };
}

const quoteArg = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `proxyctl …args` on a pty (script(1)), with `env` over a clean environment; `screen()` is
 * everything it drew so far, `until` waits for a text. `size` sets the pty's columns (and rows, 50
 * unless given): script(1) alone gives a pty of 0×0 when its own stdin is not a terminal.
 */
export function inTerminal(env: Record<string, string>, args: string[], size?: { columns: number; rows?: number }) {
  const stty = size ? `stty cols ${size.columns} rows ${size.rows ?? 50}; ` : '';
  return onPty(stty + ['node', BIN, ...args].map(quoteArg).join(' '), env);
}

/**
 * Any shell command line on a pty (script(1)): an interactive shell, for example (see shell.ts).
 * Killed after `timeoutMs`, a guard against a hang, far above what a loaded machine needs.
 */
export function onPty(command: string, env: Record<string, string>, timeoutMs = 60_000) {
  const child: ResultPromise = execa('script', ['-qefc', command, '/dev/null'], {
    reject: false,
    stdin: 'pipe',
    timeout: timeoutMs,
    env: cleanEnv({ SHELL: '/bin/sh', NO_COLOR: '1', TERM: 'xterm', ...env }),
    extendEnv: true,
  });
  let screen = '';
  const w = watch(() => screen);
  child.stdout!.on('data', (c: Buffer) => {
    screen += c.toString('utf8');
    w.wake();
  });
  void child.finally(w.end);
  return {
    child,
    screen: () => screen,
    until: w.until,
    key(s: string) {
      child.stdin!.write(s);
    },
  } satisfies Watched & { child: ResultPromise };
}

/**
 * What a terminal `columns` wide shows after drawing `raw` (escape sequences applied by a real
 * terminal emulator, @xterm/headless): one entry per row, scrollback included, with `wrapped` set
 * on a row that continues the one above because it did not fit.
 */
export async function renderScreen(raw: string, columns: number): Promise<{ text: string; wrapped: boolean }[]> {
  const { default: xterm } = await import('@xterm/headless');
  const term = new xterm.Terminal({ cols: columns, rows: 24, scrollback: 10_000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(raw, resolve));
  const rows: { text: string; wrapped: boolean }[] = [];
  const buf = term.buffer.active;
  for (let i = 0; i < buf.length; i++) {
    const line = buf.getLine(i);
    if (line) rows.push({ text: line.translateToString(true), wrapped: line.isWrapped });
  }
  while (rows.length > 0 && rows.at(-1)!.text === '') rows.pop();
  term.dispose();
  return rows;
}

/** Keys as a terminal sends them. */
export const KEY = { up: '\x1b[A', down: '\x1b[B', enter: '\r', backspace: '\x7f', ctrlC: '\x03' } as const;

/**
 * Answers each prompt of `t` in turn: waits for its text (after the previous answer), then types
 * its keys. Fails with the screen when a prompt never shows; resolves with the process's result.
 */
export async function answerPrompts(t: ReturnType<typeof onPty>, steps: [string | RegExp, string][]) {
  let from = 0;
  for (const [prompt, keys] of steps) {
    await waitForText(t, prompt, from);
    from = t.screen().length;
    t.key(keys);
  }
  return t.child;
}
