// The bash completion script, sourced in a real bash: what a user gets after pressing Tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashCompletions, proxyctl, shellEnv, tempHome } from '../helpers/index.js';

describe('bash completion', { timeout: 300_000 }, () => {
  const home = tempHome();
  let script: string;
  beforeAll(async () => {
    const r = await proxyctl(['completion', 'bash'], { home });
    expect(r.exitCode).toBe(0);
    script = join(home.dir, 'proxyctl.bash');
    writeFileSync(script, String(r.stdout));
  });
  afterAll(() => home.cleanup());

  /** The candidates bash offers for the command line `words` (the last one is being typed). */
  const complete = (...words: string[]) => bashCompletions(script, words, shellEnv(home));

  it('registers and completes subcommands', async () => {
    const { execa } = await import('execa');
    expect((await execa('bash', ['--norc', '-c', 'source "$0"; complete -p proxyctl', script])).stdout).toContain('-F _proxyctl proxyctl');
    // bash sorts what it shows (no -o nosort); the engine's order follows the help's groups.
    expect((await complete('proxyctl', 'pro')).sort()).toEqual(['profiles', 'providers']);
    expect(await complete('proxyctl', 'me', 'username', '')).toEqual(expect.arrayContaining(['set', 'clear']));
  });

  it('keeps working after a flag that takes a value', async () => {
    expect(await complete('proxyctl', '--profile', 'work', 'units', 'cr')).toEqual(['create']);
    expect(await complete('proxyctl', 'pools', '--country', 'US', '')).toEqual(expect.arrayContaining(['list', 'get']));
    expect(await complete('proxyctl', 'units', 'create', '--pool', 'US-11', '--per')).toEqual(['--period']);
  });

  it('keeps working after a positional argument', async () => {
    expect(await complete('proxyctl', 'pools', 'get', 'US-11', '--js')).toEqual(['--json']);
  });

  it('offers the allowed values of a flag or argument', async () => {
    expect(await complete('proxyctl', 'me', '-o', 'j')).toEqual(['json', 'jsonl']);
    expect(await complete('proxyctl', 'completion', 'f')).toEqual(['fish']);
  });
});
