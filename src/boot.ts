// How bin/proxyctl.js starts the CLI: dist/cli.cjs (the whole CLI, with undici and commander,
// in one CommonJS file: scripts/build.mjs) compiled with a V8 code cache, so a run reads one file
// and skips compiling the JavaScript it ran before (bench/RESULTS.md: ~45 ms of a one-request
// command's ~150 ms went to resolving, reading and compiling ~75 files).
//
// The cache is V8's own (`vm.Script` cachedData), made at the end of a run from what the run
// compiled, in the user's cache dir (PROXYCTL_CONFIG_DIR/cache when set). It only ever saves time:
// unreadable, unwritable, refused or not ours means a normal compile. V8 checks only the source's
// length and its own version and flags, and a release V8 runs broken data (a flipped byte can crash
// the process) unless told to check the data's checksum (--verify-snapshot-checksum, set below,
// native: ~0.2 ms). Besides, the file must be ours (owner, mode: cached code runs as this user),
// and its header must name this bundle (size, mtime; the name carries its content hash and this
// V8's version and flags). NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off;
// --enable-source-maps loads the bundle plainly, for mapped stack traces.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cachedDataVersionTag, setFlagsFromString } from 'node:v8';
import vm from 'node:vm';
import { cacheDir } from './config/dirs.js';

/** Set by scripts/build.mjs: the bundle's content hash (with its parameters), and its parameters. */
declare const CLI_BUNDLE_HASH: string;
declare const CLI_BUNDLE_PARAMS: string[];

/** What dist/cli.cjs exports (src/cli.ts). */
interface BundleExports {
  run(): void;
}

/** How many caches (bundles × Node versions × V8 flags) a cache dir keeps: the newest. */
const KEEP = 4;
const MAGIC = 0x32436350; // "PcC2"
const HEADER_BYTES = 24;

export function start(distDir: string): void {
  // Before anything compiles, as V8 takes cached code only under the flags it was made with: the
  // flag undici sets for llhttp (src/api/undici-parts.ts), and checksums on code caches (V8 makes
  // and checks them only in debug builds otherwise).
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--verify-snapshot-checksum');
  const file = join(distDir, 'cli.cjs');
  const cli: BundleExports = process.sourceMapsEnabled ? createRequire(file)(file) : load(file);
  cli.run();
}

/** What the header says about the bundle; a cache made for anything else is not used. */
interface Bundle {
  size: number;
  mtimeMs: number;
}

function load(file: string): BundleExports {
  // One open: the text and the size and time the cache's header must match.
  const fd = openSync(file, 'r');
  let source: string;
  let bundle: Bundle;
  try {
    bundle = fstatSync(fd);
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const path = codeCachePath();
  const cached = path ? readCodeCache(path, bundle) : undefined;
  const script = new vm.Script(`(function (${CLI_BUNDLE_PARAMS.join(', ')}) {${source}\n})`, {
    filename: file,
    cachedData: cached?.data,
  });
  if (path) {
    const made = cached && !script.cachedDataRejected ? cached.modules : 0;
    // At exit the script holds what this run compiled and what the cache gave: written when there
    // was none, V8 refused it, or this run went much further (e.g. the cache was made by `--help`
    // and this run made a request): Node's own modules loaded tell how far.
    process.once('exit', () => {
      const modules = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList?.length ?? 0;
      if (modules > made + 8) saveCodeCache(path, script, bundle, modules);
    });
  }
  const module = { exports: {} as BundleExports };
  // import() inside the bundle is this file's: code compiled from a cache loses the script's
  // dynamic-import host options on Node 20 ("A dynamic import callback was not specified").
  const importEsm = (specifier: string): Promise<unknown> => import(specifier);
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), importEsm);
  return module.exports;
}

function codeCachePath(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  // The V8 tag covers V8's version and flags (NODE_OPTIONS may add some): one file for each.
  const name = `cli-${CLI_BUNDLE_HASH}-node${process.version}-${process.arch}-${cachedDataVersionTag().toString(16)}.v8`;
  return join(cacheDir(process.env), 'code', name);
}

/**
 * The header (little-endian): u32 magic, u32 data length, u32 bundle size, u32 how many Node
 * modules the run that made it had loaded, f64 bundle mtime (ms).
 */
function readCodeCache(path: string, bundle: Bundle): { data: Buffer; modules: number } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    // Ours, and writable by nobody else: cached code runs as this user.
    if (!st.isFile() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return undefined;
    if (st.size < HEADER_BYTES) return undefined;
    const bytes = readFileSync(fd);
    const data = bytes.subarray(HEADER_BYTES);
    if (
      bytes.readUInt32LE(0) !== MAGIC ||
      bytes.readUInt32LE(4) !== data.length ||
      bytes.readUInt32LE(8) !== bundle.size ||
      bytes.readDoubleLE(16) !== bundle.mtimeMs
    )
      return undefined;
    return { data, modules: bytes.readUInt32LE(12) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function saveCodeCache(path: string, script: vm.Script, bundle: Bundle, modules: number): void {
  const tmp = `${path}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const data = script.createCachedData();
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32LE(MAGIC, 0);
    header.writeUInt32LE(data.length, 4);
    header.writeUInt32LE(bundle.size, 8);
    header.writeUInt32LE(modules, 12);
    header.writeDoubleLE(bundle.mtimeMs, 16);
    // Whole or not at all for readers (a rename); no fsync: V8 refuses a torn file by its checksum.
    writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
    prune(dir);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // e.g. the dir is not one: there is no temp file either
    }
  }
}

/** Keeps the KEEP newest caches (other bundles, Node versions and flags come and go). */
function prune(dir: string): void {
  const caches = readdirSync(dir)
    .filter((f) => /^cli-[0-9a-f]{16}-.+\.v8$/.test(f))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { f } of caches.slice(KEEP)) rmSync(join(dir, f), { force: true });
}
