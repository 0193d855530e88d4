// main() run in-process: in-memory IO (stdout/stderr collected, a TTY switch, stdin fed by the
// test) and a private config dir. Faster than spawning the binary; for the built binary see ./cli.ts.
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/io.js';
import type { Command } from 'commander';
import { buildProgram, main } from '../../src/main.js';

export interface FakeIO extends IO {
  out(): string;
  err(): string;
  /** Feed stdin (then end it). */
  input(text: string): void;
}

export function fakeIO(
  opts: { tty?: boolean; stdinTTY?: boolean; env?: Record<string, string | undefined>; columns?: number } = {},
): FakeIO {
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
    // Never the real keyring from a test's own process (test/setup/isolate-home.ts).
    env: { PROXYCTL_INSECURE_STORAGE: '1', ...opts.env },
    columns: opts.columns ?? (tty ? 100 : undefined),
    out: () => out,
    err: () => err,
    input(text) {
      stdin.end(text);
    },
  };
}

export interface MainResult {
  code: number;
  out: string;
  err: string;
  io: FakeIO;
}

/** main(argv) with fake IO whose environment names `configDir` (from tempHome()) as PROXYCTL_CONFIG_DIR. */
export async function runMain(
  argv: string[],
  opts: { env?: Record<string, string | undefined>; tty?: boolean; stdin?: string; configDir: string; now?: () => Date },
): Promise<MainResult> {
  const io = fakeIO({ tty: opts.tty ?? false, env: { PROXYCTL_CONFIG_DIR: opts.configDir, ...opts.env } });
  if (opts.stdin !== undefined) io.input(opts.stdin);
  const code = await main(argv, io, opts.now ? { now: opts.now } : {});
  return { code, out: io.out(), err: io.err(), io };
}

/** The whole command tree the binary is built from, built in this process (nothing runs). */
export function commandTree(): Command {
  return buildProgram({ io: fakeIO(), signal: new AbortController().signal, now: () => new Date(), exitCode: 0, globals: undefined });
}

/** Every command path under `cmd` ("units create", "me username set", …), parents before children. */
export function commandPaths(cmd: Command = commandTree(), prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => [[...prefix, c.name()], ...commandPaths(c, [...prefix, c.name()])]);
}
