// Runs main() in-process with fake IO and a private temporary config dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/main.js';
import { fakeIO, type FakeIO } from './fake-io.js';

export interface Sandboxed {
  configDir: string;
  cleanup(): void;
}

export function tempConfig(): Sandboxed {
  const dir = mkdtempSync(join(tmpdir(), 'proxyctl-client-'));
  return { configDir: join(dir, 'config'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunResult {
  code: number;
  out: string;
  err: string;
  io: FakeIO;
}

export async function runCli(
  argv: string[],
  opts: { env?: Record<string, string | undefined>; tty?: boolean; stdin?: string; configDir: string; now?: () => Date },
): Promise<RunResult> {
  const io = fakeIO({ tty: opts.tty ?? false, env: { PROXYCTL_CONFIG_DIR: opts.configDir, ...opts.env } });
  if (opts.stdin !== undefined) io.input(opts.stdin);
  const code = await main(argv, io, opts.now ? { now: opts.now } : {});
  return { code, out: io.out(), err: io.err(), io };
}
