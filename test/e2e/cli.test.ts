import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import { BIN, cleanEnv, proxyctl, tempHome } from '../helpers/index.js';
import { execa } from 'execa';

const home = tempHome();
afterAll(() => home.cleanup());

describe('the built binary', () => {
  it('--version', async () => {
    const r = await proxyctl(['--version'], { home });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(pkg.version);
  });

  it('--help', async () => {
    const r = await proxyctl(['--help'], { home });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: proxyctl');
    expect(r.stderr).toBe('');
  });

  it('an unknown flag exits 2 with a suggestion on stderr', async () => {
    const r = await proxyctl(['--verison'], { home });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Did you mean --version?');
  });

  it('an unknown command exits 2', async () => {
    const r = await proxyctl(['frobnicate'], { home });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('--help loads none of the heavy modules', async () => {
    const record = join(home.dir, 'imports.txt');
    const hook = fileURLToPath(new URL('../fixtures/record-imports.mjs', import.meta.url));
    // The full path, as on a terminal: FORCE_COLOR (here off) skips dist/help.txt (help-fast-path.test.ts).
    const r = await execa('node', ['--import', hook, BIN, '--help'], {
      reject: false,
      env: cleanEnv({ ...home.env, RECORD_IMPORTS: record, FORCE_COLOR: '0' }),
    });
    expect(r.exitCode).toBe(0);
    const loaded = readFileSync(record, 'utf8').split('\n').filter(Boolean);
    expect(loaded.some((u) => u.includes('/dist/cli.js'))).toBe(true);
    expect(loaded.some((u) => u.includes('node_modules/commander/'))).toBe(true);
    // Modules shared by the entry and some command (errors.ts, …) land in a chunk the entry
    // imports statically; only command chunks must stay unloaded.
    const entryChunks = [
      ...readFileSync(fileURLToPath(new URL('../../dist/cli.js', import.meta.url)), 'utf8').matchAll(
        /(?:from|import) "\.\/(chunks\/[^"]+)"/g,
      ),
    ].map((m) => `/dist/${m[1]}`);
    const commandChunks = loaded.filter((u) => u.includes('/dist/chunks/') && !entryChunks.some((c) => u.endsWith(c)));
    expect(commandChunks).toEqual([]);
    for (const heavy of ['undici', '@inquirer', 'ora', 'cli-table3', 'proper-lockfile', 'write-file-atomic', 'chalk']) {
      expect(loaded.filter((u) => u.includes(`node_modules/${heavy}/`))).toEqual([]);
    }
  });
});
