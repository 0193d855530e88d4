// Real shells completing proxyctl: bash (always there), zsh and fish (where installed). The built
// binary is put on PATH as `proxyctl` (a shim in the temp home), as an installed one would be.
import { execa } from 'execa';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv, type TempHome } from './cli.js';
import { onPty } from './terminal.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** True when `shell` can be run here (zsh and fish are optional; their tests skip, saying so). */
export async function hasShell(shell: string): Promise<boolean> {
  const r = await execa(shell, ['-c', 'exit 0'], { reject: false });
  return r.exitCode === 0;
}

/** The environment a user's shell would have: the temp home, and `proxyctl` on PATH running the built binary. */
export function shellEnv(home: TempHome, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const bin = join(home.dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, 'proxyctl');
  writeFileSync(shim, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  return cleanEnv({ ...home.env, PATH: `${bin}:${process.env.PATH ?? ''}`, ...extra });
}

/** What bash puts in COMPREPLY for `words` (the last one is being typed), with `script` sourced. */
export async function bashCompletions(script: string, words: string[], env: Record<string, string | undefined>): Promise<string[]> {
  const r = await execa(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `source ${quote(script)}; COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _proxyctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { env, extendEnv: false, timeout: 60_000 },
  );
  return r.stdout.split('\n').filter(Boolean);
}

/**
 * An interactive shell on a pty: type with `key`, wait for what it draws with `until`. Every TAB
 * starts node, which takes seconds on a loaded 2-core machine: a session may take a minute; a
 * hang ends after four, with the screen in the failure.
 */
export function shellOnPty(argv: string[], env: Record<string, string | undefined>) {
  const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  return onPty(argv.map(quote).join(' '), vars, 240_000);
}
