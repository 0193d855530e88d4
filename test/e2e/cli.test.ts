import { afterAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { loadedBy, proxyctl, tempHome } from '../helpers/index.js';

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
    // The full path, as on a terminal: FORCE_COLOR (here off) skips dist/help.txt (help-fast-path.test.ts).
    const l = await loadedBy(['--help'], home, { FORCE_COLOR: '0' });
    expect(l.exitCode).toBe(0);
    expect(l.bundleRan).toBe(true);
    expect(l.packages.has('commander')).toBe(true);
    // The command tree is built from the definitions (<verb>.command.ts); no handler runs, and
    // nothing of the API client but its enums (they name flags' choices).
    const handlers = [...l.sources].filter(
      (s) => s.startsWith('src/commands/') && !/\.command\.ts$|\/index\.ts$|^src\/commands\/(action|commander|options)\.ts$/.test(s),
    );
    expect(handlers).toEqual([]);
    expect([...l.sources].filter((s) => s.startsWith('src/api/') && s !== 'src/api/enums.ts')).toEqual([]);
    for (const heavy of ['undici', 'ora', 'cli-table3', 'proper-lockfile', 'write-file-atomic', 'chalk'])
      expect(l.packages.has(heavy)).toBe(false);
    expect([...l.packages].filter((p) => p.startsWith('@inquirer/'))).toEqual([]);
  });
});
