// How bin/proxyctl.js starts the CLI: dist/cli.cjs (the whole CLI, with undici and commander,
// in one CommonJS file: scripts/build.mjs) compiled with a V8 code cache, so a run reads one file
// and skips compiling the JavaScript it ran before (bench/RESULTS.md: ~45 ms of a one-request
// command's ~150 ms went to resolving, reading and compiling ~75 files).
//
// The cache is V8's own (`vm.Script` cachedData), made at the end of the first run from what that
// run compiled, in the user's cache dir (PROXYCTL_CONFIG_DIR/cache when set), one file per bundle
// and Node version; V8 refuses data made by another V8 or under other flags, and then this run
// makes it anew. It only ever saves time: an unreadable, unwritable or refused cache means a
// normal compile. NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';
import envPaths from 'env-paths';

/** The bundle's content hash, set by scripts/build.mjs (V8 checks only a cache's source length). */
declare const CLI_BUNDLE_HASH: string;

/** What dist/cli.cjs exports (src/cli.ts). */
interface BundleExports {
  run(): void;
}

/**
 * The bundle's CommonJS scope, and `__dyni`: scripts/build.mjs writes the bundle's `import(` of
 * packages loaded on demand (chalk, prompts, …) as `__dyni(` (same length, so the source map holds).
 */
const BUNDLE_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname', '__dyni'];

export function start(distDir: string): void {
  // The flag undici sets for llhttp (src/api/undici-parts.ts), set before anything compiles: V8
  // takes cached code only under the flags it was made with.
  setFlagsFromString('--liftoff-only');
  load(join(distDir, 'cli.cjs')).run();
}

function load(file: string): BundleExports {
  const source = readFileSync(file, 'utf8');
  const cachePath = codeCachePath();
  let cachedData: Buffer | undefined;
  if (cachePath) {
    try {
      cachedData = readFileSync(cachePath);
    } catch {
      // first run of this bundle on this Node
    }
  }
  const script = new vm.Script(`(function (${BUNDLE_PARAMS.join(', ')}) {${source}\n})`, { filename: file, cachedData });
  if (cachePath && (cachedData === undefined || script.cachedDataRejected)) {
    // At exit the script holds every function this run compiled, not only its top level.
    process.once('exit', () => saveCodeCache(cachePath, script));
  }
  const module = { exports: {} as BundleExports };
  const require = createRequire(file);
  // import() inside the bundle is this file's: code compiled from a cache loses the script's
  // dynamic-import host options on Node 20 ("A dynamic import callback was not specified").
  const importEsm = (specifier: string): Promise<unknown> => import(specifier);
  script.runInThisContext()(module.exports, require, module, file, dirname(file), importEsm);
  return module.exports;
}

function codeCachePath(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  const configDir = process.env.PROXYCTL_CONFIG_DIR;
  const dir = join(configDir ? join(configDir, 'cache') : envPaths('proxyctl', { suffix: '' }).cache, 'code');
  return join(dir, `cli-${CLI_BUNDLE_HASH}-node${process.version}-${process.arch}.v8`);
}

function saveCodeCache(path: string, script: vm.Script): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Caches of earlier bundles and Node versions are of no more use.
    for (const f of readdirSync(dir)) if (f.startsWith('cli-') && join(dir, f) !== path) rmSync(join(dir, f), { force: true });
    // A reader never sees half a file; two first runs at once each write a whole one.
    const require = createRequire(__filename);
    const { sync: writeAtomic } = require('write-file-atomic') as { sync: (p: string, d: Buffer, o: { mode: number }) => void };
    writeAtomic(path, script.createCachedData(), { mode: 0o600 });
  } catch {
    // no cache this time
  }
}
