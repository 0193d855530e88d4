// The bash completion script, sourced in a real bash: what a user gets after pressing Tab.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/index.js';

describe('bash completion', () => {
  let dir: string;
  let script: string;
  beforeAll(async () => {
    const io = fakeIO();
    expect(await main(['completion', 'bash'], io)).toBe(0);
    dir = mkdtempSync(join(tmpdir(), 'proxyctl-completion-'));
    script = join(dir, 'proxyctl.bash');
    writeFileSync(script, io.out());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The candidates bash offers for the command line `words` (the last one is being typed). */
  function complete(...words: string[]): string[] {
    const quoted = words.map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(' ');
    const out = execFileSync(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-c',
        `source "$0"; COMP_WORDS=(${quoted}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _proxyctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
        script,
      ],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    return out.split('\n').filter(Boolean);
  }

  it('registers and completes subcommands', () => {
    expect(execFileSync('bash', ['--norc', '-c', 'source "$0"; complete -p proxyctl', script], { encoding: 'utf8' })).toContain(
      '-F _proxyctl proxyctl',
    );
    // bash sorts what it shows (no -o nosort); the script's order follows the help's groups.
    expect(complete('proxyctl', 'pro').sort()).toEqual(['profiles', 'providers']);
    expect(complete('proxyctl', 'me', 'username', '')).toEqual(expect.arrayContaining(['set', 'clear']));
  });

  it('keeps working after a flag that takes a value', () => {
    expect(complete('proxyctl', '--profile', 'work', 'units', 'cr')).toEqual(['create']);
    expect(complete('proxyctl', 'pools', '--country', 'US', '')).toEqual(expect.arrayContaining(['list', 'get']));
    expect(complete('proxyctl', 'units', 'create', '--pool', 'US-11', '--per')).toEqual(['--period']);
  });

  it('keeps working after a positional argument', () => {
    expect(complete('proxyctl', 'pools', 'get', 'US-11', '--js')).toEqual(['--json']);
  });

  it('offers the allowed values of a flag or argument', () => {
    expect(complete('proxyctl', 'me', '-o', 'j')).toEqual(['json', 'jsonl']);
    expect(complete('proxyctl', 'completion', 'f')).toEqual(['fish']);
  });
});
