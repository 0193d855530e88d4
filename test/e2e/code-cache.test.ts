// The CLI's V8 code cache (src/boot.ts): made by the first run of a bundle on a Node, used by the
// next, and never able to change what a command does: a missing, broken, foreign or unwritable
// cache only means compiling as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { cleanEnv, createUnit, fileMode, loadedBy, NODE, proxyctl, startKit, tempHome, type Kit, type TempHome } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
  await createUnit(kit.sb);
  await createUnit(kit.sb);
});
afterAll(() => kit.close());

const homes: TempHome[] = [];
afterAll(() => {
  for (const h of homes) h.cleanup();
});
function freshHome(): TempHome {
  const h = tempHome();
  homes.push(h);
  return h;
}

/** Two units as ip:port:user:pass lines: the same text on every run. */
const LIST = ['units', 'list', '-o', 'conn'];
const codeDir = (home: TempHome) => join(home.configDir, 'cache', 'code');
const run = (home: TempHome, args: string[], env: Record<string, string | undefined> = {}) =>
  proxyctl(args, { home, env: { PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, ...env } });

function cacheFile(home: TempHome): string {
  const files = readdirSync(codeDir(home));
  expect(files).toHaveLength(1);
  // Bundle hash, Node version, arch and V8's tag (its version and flags).
  expect(files[0]).toMatch(/^cli-[0-9a-f]{16}-nodev\d+\.\d+\.\d+-[a-z0-9]+-[0-9a-f]+\.v8$/);
  return join(codeDir(home), files[0] as string);
}

describe('the code cache', () => {
  it('is made by the first run, private, then used as it is: same output, file not rewritten', async () => {
    const home = freshHome();
    const first = await run(home, LIST);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const file = cacheFile(home);
    expect(fileMode(file)).toBe(0o600);
    expect(fileMode(codeDir(home))).toBe(0o700);
    const made = statSync(file);
    expect(made.size).toBeGreaterThan(10_000);

    const second = await run(home, LIST);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(String(second.stdout).trim().split('\n')).toHaveLength(2);
    // Rewritten only when missing or refused by V8: the same inode and time mean it was taken.
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([made.ino, made.mtimeMs]);
  });

  it('code from the cache still loads packages on demand (chalk, for forced colour)', async () => {
    // On Node 20 an import() in code compiled from a cache fails ("A dynamic import callback was
    // not specified"), which src/boot.ts works around: the second run is the one that would fail.
    const home = freshHome();
    const env = { PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, FORCE_COLOR: '1' };
    const first = await loadedBy(['units', 'list'], home, env);
    expect(first.exitCode, first.stderr).toBe(0);
    const made = statSync(cacheFile(home));
    const l = await loadedBy(['units', 'list'], home, env);
    expect(l.exitCode, l.stderr).toBe(0);
    expect(l.stderr).toBe('');
    expect(l.packages.has('chalk')).toBe(true);
    expect(l.stdout).toBe(first.stdout);
    // Taken (not remade): the second run's code came from the cache.
    const after = statSync(cacheFile(home));
    expect([after.ino, after.mtimeMs]).toEqual([made.ino, made.mtimeMs]);
  });

  it('a broken cache is refused and made anew; the command is unaffected', async () => {
    // V8 runs what a release build is given: without checksums (src/boot.ts) a flipped byte in the
    // data crashed the process (a fatal V8 error or SIGSEGV) on every run until the file was removed.
    const home = freshHome();
    const good = await run(home, LIST);
    const file = cacheFile(home);
    for (const at of [0.002, 0.25, 0.5, 0.9]) {
      const bytes = readFileSync(file);
      const offset = Math.floor(bytes.length * at);
      bytes.writeUInt32LE(0xdeadbeef, offset);
      writeFileSync(file, bytes);
      const r = await run(home, LIST);
      expect(r.exitCode, `flipped at ${offset}: ${r.signal ?? ''} ${String(r.stderr)}`).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(good.stdout);
      expect(readFileSync(file).readUInt32LE(offset)).not.toBe(0xdeadbeef);
    }
    writeFileSync(file, 'short');
    expect((await run(home, LIST)).stdout).toBe(good.stdout);
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });

  it('a cache another user could have written is not used', async () => {
    const home = freshHome();
    expect((await run(home, LIST)).exitCode).toBe(0);
    const file = cacheFile(home);
    chmodSync(file, 0o666);
    const r = await run(home, LIST);
    expect(r.exitCode).toBe(0);
    // Not used, so made anew (a new file, 0600).
    expect(fileMode(file)).toBe(0o600);
  });

  it('the bundle changed in place (same length, other time) means a new cache', async () => {
    // A copy of the package: the shared dist/ must not change under other test runs.
    const home = freshHome();
    const copy = join(home.dir, 'pkg');
    for (const d of ['bin', 'dist']) cpSync(fileURLToPath(new URL(`../../${d}`, import.meta.url)), join(copy, d), { recursive: true });
    cpSync(fileURLToPath(new URL('../../package.json', import.meta.url)), join(copy, 'package.json'));
    symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(copy, 'node_modules'));
    const runCopy = () =>
      execa(NODE, [join(copy, 'bin', 'proxyctl.js'), ...LIST], {
        reject: false,
        stdin: 'ignore',
        env: cleanEnv({ ...home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey }),
      });
    expect((await runCopy()).exitCode).toBe(0);
    const file = cacheFile(home);
    const before = statSync(file);
    const bundle = join(copy, 'dist', 'cli.cjs');
    const { atime, mtime } = statSync(bundle);
    utimesSync(bundle, atime, new Date(mtime.getTime() + 1000));
    const r = await runCopy();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe((await run(freshHome(), LIST)).stdout);
    expect(statSync(file).ino).not.toBe(before.ino);
  });

  it('V8 flags from NODE_OPTIONS get their own cache instead of remaking the one without', async () => {
    const home = freshHome();
    expect((await run(home, LIST)).exitCode).toBe(0);
    const plain = cacheFile(home);
    const made = statSync(plain);
    const flagged = { NODE_OPTIONS: '--stack-trace-limit=20' };
    for (let i = 0; i < 2; i++) expect((await run(home, LIST, flagged)).exitCode).toBe(0);
    const files = readdirSync(codeDir(home));
    expect(files).toHaveLength(2);
    const other = join(codeDir(home), files.find((f) => join(codeDir(home), f) !== plain) as string);
    const flaggedMade = statSync(other);
    expect((await run(home, LIST, flagged)).exitCode).toBe(0);
    expect((await run(home, LIST)).exitCode).toBe(0);
    expect([statSync(plain).ino, statSync(plain).mtimeMs]).toEqual([made.ino, made.mtimeMs]);
    expect([statSync(other).ino, statSync(other).mtimeMs]).toEqual([flaggedMade.ino, flaggedMade.mtimeMs]);
  });

  it('a cache made by a light run (help) is remade once by a run that goes further', async () => {
    const home = freshHome();
    expect((await run(home, ['units', 'list', '--help'])).exitCode).toBe(0);
    const light = statSync(cacheFile(home));
    expect((await run(home, LIST)).exitCode).toBe(0);
    const full = statSync(cacheFile(home));
    expect(full.ino).not.toBe(light.ino);
    expect(full.size).toBeGreaterThan(light.size);
    expect((await run(home, LIST)).exitCode).toBe(0);
    expect((await run(home, ['units', 'list', '--help'])).exitCode).toBe(0);
    const after = statSync(cacheFile(home));
    expect([after.ino, after.mtimeMs]).toEqual([full.ino, full.mtimeMs]);
  });

  it('--enable-source-maps loads the bundle plainly (mapped stack traces), and leaves no cache', async () => {
    const home = freshHome();
    const r = await run(home, LIST, { NODE_OPTIONS: '--enable-source-maps' });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout).trim().split('\n')).toHaveLength(2);
    expect(() => readdirSync(codeDir(home))).toThrow(/ENOENT/);
  });

  it('keeps the four newest caches (other bundles, Node versions, flags) and removes older ones', async () => {
    const home = freshHome();
    mkdirSync(codeDir(home), { recursive: true, mode: 0o700 });
    const others = Array.from({ length: 5 }, (_, i) => `cli-0123456789abcde${i}-nodev0.0.${i}-x64-abc.v8`);
    others.forEach((f, i) => {
      writeFileSync(join(codeDir(home), f), 'old', { mode: 0o600 });
      // Oldest first: the first two are the ones past the four newest once this run adds its own.
      const at = new Date(Date.now() - (10 - i) * 60_000);
      utimesSync(join(codeDir(home), f), at, at);
    });
    writeFileSync(join(codeDir(home), 'notes.txt'), 'not a cache');
    expect((await run(home, ['--version', '--json'])).exitCode).toBe(0);
    const left = readdirSync(codeDir(home));
    expect(left.filter((f) => others.includes(f)).sort()).toEqual(others.slice(2).sort());
    expect(left).toContain('notes.txt');
    expect(left.filter((f) => !others.includes(f) && f !== 'notes.txt')).toHaveLength(1);
  });

  it('an unusable cache dir changes nothing but the speed', async () => {
    const home = freshHome();
    mkdirSync(join(home.configDir, 'cache'), { recursive: true, mode: 0o700 });
    writeFileSync(codeDir(home), 'not a directory');
    const r = await run(home, LIST);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(r.stderr).toBe('');
    expect(String(r.stdout).trim().split('\n')).toHaveLength(2);
    expect(readFileSync(codeDir(home), 'utf8')).toBe('not a directory');
  });

  it('a cache file it cannot read is passed over', async () => {
    const home = freshHome();
    expect((await run(home, LIST)).exitCode).toBe(0);
    const file = cacheFile(home);
    // A directory where the file should be: reading fails, and writing (at exit) fails too.
    rmSync(file);
    mkdirSync(file);
    const r = await run(home, LIST);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(r.stderr).toBe('');
    expect(String(r.stdout).trim().split('\n')).toHaveLength(2);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off', async () => {
    const home = freshHome();
    const r = await run(home, LIST, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.exitCode).toBe(0);
    expect(() => readdirSync(codeDir(home))).toThrow(/ENOENT/);
  });

  it('eight first runs at once leave one whole cache and no temp files', async () => {
    const home = freshHome();
    const runs = await Promise.all(Array.from({ length: 8 }, () => run(home, LIST)));
    for (const r of runs) expect(r.exitCode, String(r.stderr)).toBe(0);
    const file = cacheFile(home);
    // Whole: the next run takes it (not rewritten) and prints the same.
    const before = statSync(file);
    const next = await run(home, LIST);
    expect(next.stdout).toBe(runs[0]?.stdout);
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});
