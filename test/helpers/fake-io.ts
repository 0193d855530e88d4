// In-memory IO for in-process tests of main(): collects stdout/stderr, with a TTY switch.
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/io.js';

export interface FakeIO extends IO {
  out(): string;
  err(): string;
  /** Feed stdin (then end it). */
  input(text: string): void;
}

export function fakeIO(opts: { tty?: boolean; stdinTTY?: boolean; env?: Record<string, string | undefined>; columns?: number } = {}): FakeIO {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const tty = opts.tty ?? false;
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: opts.stdinTTY ?? tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    env: opts.env ?? {},
    columns: opts.columns ?? (tty ? 100 : undefined),
    out: () => out,
    err: () => err,
    input(text) {
      stdin.end(text);
    },
  };
}
