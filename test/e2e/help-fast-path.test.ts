// `proxyctl --help` into a pipe is answered by bin/proxyctl.js from dist/help.txt, which the build
// writes from the bundle (scripts/build.mjs). It must be exactly what the CLI itself prints, and
// anything that could make the CLI print otherwise (forced colour) must take the full path.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cleanEnv, proxyctl, tempHome } from '../helpers/index.js';

const DIST_CLI = new URL('../../dist/cli.js', import.meta.url).href;
const HOOK = pathToFileURL(fileURLToPath(new URL('../fixtures/record-imports.mjs', import.meta.url))).href;

/** The CLI's own answer, without bin/proxyctl.js in front: dist/cli.js's run(), as the bin calls it. */
function fullCli(args: string[], env: Record<string, string | undefined>) {
  return execa('node', ['--input-type=module', '-e', `(await import(${JSON.stringify(DIST_CLI)})).run();`, '--', 'proxyctl', ...args], {
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
      const record = join(home.dir, `imports-${flag}.txt`);
      const [fast, full] = await Promise.all([
        proxyctl([flag], { home, env: { NODE_OPTIONS: `--import=${HOOK}`, RECORD_IMPORTS: record } }),
        fullCli([flag], home.env),
      ]);
      // The fast path really was taken: the text came from dist/help.txt, without commander.
      expect(readFileSync(record, 'utf8')).not.toContain('/node_modules/commander/');
      expect(full.exitCode).toBe(0);
      expect(full.stdout).toContain('Usage: proxyctl');
      expect(fast.exitCode).toBe(0);
      expect(fast.stderr).toBe('');
      expect(fast.stdout).toBe(full.stdout);
    });
  }

  it('is the same text with NO_COLOR set', async () => {
    const record = join(home.dir, 'imports-no-color.txt');
    const [fast, full] = await Promise.all([
      proxyctl(['--help'], { home, env: { NO_COLOR: '1', NODE_OPTIONS: `--import=${HOOK}`, RECORD_IMPORTS: record } }),
      fullCli(['--help'], home.env),
    ]);
    expect(readFileSync(record, 'utf8')).not.toContain('/node_modules/commander/');
    expect(fast.stdout).toBe(full.stdout);
  });

  for (const env of [{ FORCE_COLOR: '1' }, { CLICOLOR_FORCE: '1' }]) {
    it(`${Object.keys(env)[0]} takes the full path (the CLI decides about colour)`, async () => {
      const record = join(home.dir, `imports-${Object.keys(env)[0]}.txt`);
      const r = await proxyctl(['--help'], { home, env: { ...env, NODE_OPTIONS: `--import=${HOOK}`, RECORD_IMPORTS: record } });
      expect(r.exitCode).toBe(0);
      expect(readFileSync(record, 'utf8')).toContain('/node_modules/commander/');
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
