// `proxyctl --help` into a pipe is answered by bin/proxyctl.js from dist/help.txt, which the build
// writes from the bundle (scripts/build.mjs). It must be exactly what the CLI itself prints, and
// anything that could make the CLI print otherwise (forced colour) must take the full path.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { cleanEnv, loadedBy, proxyctl, tempHome } from '../helpers/index.js';

const DIST_CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));

/** The CLI's own answer, without bin/proxyctl.js in front: dist/cli.cjs's run(), as bin/proxyctl.js calls it. */
function fullCli(args: string[], env: Record<string, string | undefined>) {
  return execa('node', ['-e', `require(${JSON.stringify(DIST_CLI)}).run();`, '--', 'proxyctl', ...args], {
    reject: false,
    stdin: 'ignore',
    env: { ...cleanEnv(), ...env },
  });
}

describe('proxyctl --help into a pipe', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  for (const flag of ['--help', '-h']) {
    it(`${flag} prints exactly what the CLI prints, and exits 0`, async () => {
      const [fast, full] = await Promise.all([loadedBy([flag], home), fullCli([flag], home.env)]);
      // The fast path really was taken: the text came from dist/help.txt; the CLI never ran.
      expect(fast.bundleRan).toBe(false);
      expect(full.exitCode).toBe(0);
      expect(full.stdout).toContain('Usage: proxyctl');
      expect(fast.exitCode).toBe(0);
      expect(fast.stderr).toBe('');
      expect(fast.stdout).toBe(full.stdout);
    });
  }

  it('is the same text with NO_COLOR set', async () => {
    const [fast, full] = await Promise.all([loadedBy(['--help'], home, { NO_COLOR: '1' }), fullCli(['--help'], home.env)]);
    expect(fast.bundleRan).toBe(false);
    expect(fast.stdout).toBe(full.stdout);
  });

  for (const env of [{ FORCE_COLOR: '1' }, { CLICOLOR_FORCE: '1' }]) {
    it(`${Object.keys(env)[0]} takes the full path (the CLI decides about colour)`, async () => {
      const r = await loadedBy(['--help'], home, env);
      expect(r.exitCode).toBe(0);
      expect(r.packages.has('commander')).toBe(true);
      const full = await fullCli(['--help'], { ...home.env, ...env });
      expect(r.stdout).toBe(full.stdout);
    });
  }

  it('help for a command, or help with other flags, takes the full path', async () => {
    for (const args of [
      ['units', '--help'],
      ['--help', '--json'],
    ]) {
      const [fast, full] = await Promise.all([proxyctl(args, { home }), fullCli(args, home.env)]);
      expect(fast.exitCode).toBe(full.exitCode);
      expect(fast.stdout).toBe(full.stdout);
    }
  });
});
