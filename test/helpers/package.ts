// The package as npm users get it: `npm pack` from a clean copy of the sources (so the pack's own
// `prepare` builds dist/, without touching the dist/ the other tests spawn), then installed from the
// tarball globally into a fresh prefix and as a dependency of a fresh project. Installs prefer npm's
// cache: `npm ci` put every tarball there; only the registry's package metadata (which a lockfile
// install does not fetch) is asked for once, and later runs need no network at all.
import { execa } from 'execa';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './cli.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm pack` needs from a checkout; everything else (tests, docs, dist) stays behind. */
const SOURCES = [
  'package.json',
  'package-lock.json',
  'bin',
  'src',
  'scripts',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'LICENSE',
  'completions',
];

export interface Packed {
  dir: string;
  tarball: string;
  /** Paths inside the tarball, without the leading `package/`. */
  files: string[];
  cleanup(): void;
}

/**
 * npm's own cache: the test setup gives each worker a temporary HOME (so ~/.npm would be empty);
 * `npm test` passes the real one as npm_config_cache.
 */
export function npmCache(): string {
  return process.env.npm_config_cache || join(userInfo().homedir, '.npm');
}

/** npm with the real cache, offline where the cache allows, quiet; the environment scrubbed as for the binary. */
export function npm(args: string[], cwd: string) {
  return execa('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `--cache=${npmCache()}`], {
    cwd,
    env: cleanEnv({ npm_config_cache: undefined }),
    extendEnv: true,
    timeout: 180_000,
  });
}

export async function packClean(): Promise<Packed> {
  const dir = mkdtempSync(join(tmpdir(), 'proxyctl-pack-'));
  const src = join(dir, 'src');
  mkdirSync(src);
  for (const entry of SOURCES) if (existsSync(join(REPO, entry))) cpSync(join(REPO, entry), join(src, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(src, 'node_modules'), 'dir'); // esbuild and tsc for `prepare`
  const out = join(dir, 'out');
  mkdirSync(out);
  await npm(['pack', '--pack-destination', out], src);
  const name = readdirSync(out).find((f) => f.endsWith('.tgz'));
  if (!name) throw new Error(`npm pack wrote no tarball in ${out}`);
  const tarball = join(out, name);
  const listing = await execa('tar', ['-tzf', tarball]);
  const files = listing.stdout
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''))
    .sort();
  return { dir, tarball, files, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `npm i -g --prefix <fresh dir> <tarball>`; returns the prefix (the binary is <prefix>/bin/proxyctl). */
export async function installGlobally(p: Packed): Promise<string> {
  const prefix = join(p.dir, 'prefix');
  await npm(['install', '--global', '--prefix', prefix, p.tarball], p.dir);
  return prefix;
}

/** A fresh ESM project with the tarball as its one dependency; returns its directory. */
export async function installInProject(p: Packed): Promise<string> {
  const app = join(p.dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await npm(['install', p.tarball], app);
  return app;
}
