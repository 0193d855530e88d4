// The CLI's V8 code cache (src/boot.ts): made by the first run of a bundle on a Node, used by the
// next, and never able to change what a command does: a missing, broken, foreign or unwritable
// cache only means compiling as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUnit, fileMode, loadedBy, proxyctl, startKit, tempHome, type Kit, type TempHome } from '../helpers/index.js';

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
  expect(files[0]).toMatch(
    new RegExp(
      `^cli-[0-9a-f]{16}-node${process.env.PROXYCTL_TEST_NODE ? 'v\\d+\\.\\d+\\.\\d+' : process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8$`,
    ),
  );
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
    const first = await run(home, ['units', 'list'], { FORCE_COLOR: '1' });
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const made = statSync(cacheFile(home));
    const l = await loadedBy(['units', 'list'], home, {
      PROXYCTL_BASE_URL: kit.sb.baseUrl,
      PROXYCTL_API_KEY: kit.sb.apiKey,
      FORCE_COLOR: '1',
    });
    expect(l.exitCode, l.stderr).toBe(0);
    expect(l.stderr).toBe('');
    expect(l.packages.has('chalk')).toBe(true);
    expect(l.stdout).toBe(String(first.stdout));
    const after = statSync(cacheFile(home));
    expect([after.ino, after.mtimeMs]).toEqual([made.ino, made.mtimeMs]);
  });

  it('a broken cache is refused and made anew; the command is unaffected', async () => {
    const home = freshHome();
    const good = await run(home, LIST);
    const file = cacheFile(home);
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    const r = await run(home, LIST);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(r.stdout).toBe(good.stdout);
    expect(readFileSync(file).equals(garbage)).toBe(false);
  });

  it("another bundle's or Node's cache is removed when this one is written", async () => {
    const home = freshHome();
    mkdirSync(codeDir(home), { recursive: true });
    const stale = join(codeDir(home), 'cli-0123456789abcdef-nodev0.0.0-x64.v8');
    writeFileSync(stale, 'old');
    expect((await run(home, ['--version', '--json'])).exitCode).toBe(0);
    expect(readdirSync(codeDir(home))).not.toContain('cli-0123456789abcdef-nodev0.0.0-x64.v8');
    cacheFile(home);
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
