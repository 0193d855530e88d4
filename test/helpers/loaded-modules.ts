// What a run of the built binary loaded, for the tests of what a command costs to start.
//
// Two kinds of code run: files Node loads itself (bin/, dist/cli.cjs itself, the packages loaded on demand
// from node_modules such as chalk or cli-table3, Node's own modules), which test/fixtures/record-imports.mjs
// records; and the modules inside dist/cli.cjs (src/…, undici, commander), one file to Node. esbuild
// wraps each of those in a function run on first import or require, named by the module's path
// (`"src/config/store.ts"() {…}`, `"node_modules/undici/lib/core/util.js"(exports, module) {…}`), and V8's
// coverage (NODE_V8_COVERAGE) counts the calls of every function: a wrapper called is a module loaded.
// The few modules the bundle runs unwrapped (the entry's own static imports) run whenever it does.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { proxyctl, type TempHome } from './cli.js';

const HOOK = pathToFileURL(fileURLToPath(new URL('../fixtures/record-imports.mjs', import.meta.url))).href;
const BUNDLE = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));
const BUNDLE_URL = pathToFileURL(BUNDLE).href;

export interface Loaded {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** Whether dist/cli.cjs ran at all (bin/proxyctl.js answers `--version` and piped `--help` alone). */
  bundleRan: boolean;
  /** npm packages loaded, in the bundle or from node_modules, by name ('undici', '@inquirer/core', …). */
  packages: Set<string>;
  /** Our source files (src/…) run. */
  sources: Set<string>;
  /** Modules of the bundle run, by path (src/…, node_modules/…). */
  modules: Set<string>;
  /** Node's own modules ('node:http2', …). */
  builtins: Set<string>;
  /** Every file URL Node loaded itself. */
  files: string[];
}

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

/** The bundle's modules the coverage in `dir` saw run, or undefined when the bundle never ran. */
function bundleModules(dir: string): Set<string> | undefined {
  for (const f of readdirSync(dir)) {
    const coverage = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Coverage;
    const script = coverage.result.find((s) => s.url === BUNDLE_URL);
    if (!script) continue;
    const map = JSON.parse(readFileSync(`${BUNDLE}.map`, 'utf8')) as { sources: string[] };
    // The map's sources are relative to dist/ (../src/cli.ts), the wrappers' names to the repository.
    const sources = new Set(map.sources.map((p) => p.replace(/^(\.\.\/)+/, '')));
    const wrapped = script.functions.filter((fn) => sources.has(fn.functionName));
    const ran = new Set(wrapped.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0).map((fn) => fn.functionName));
    const names = new Set(wrapped.map((fn) => fn.functionName));
    for (const s of sources) if (!names.has(s)) ran.add(s);
    return ran;
  }
  return undefined;
}

/** The package of a file URL (…/node_modules/chalk/source/index.js) or a bundled module (node_modules/undici/…, lazy:undici/…). */
const packageOf = (path: string) =>
  /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? /^lazy:((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];

let runs = 0;

/**
 * What `proxyctl …args` loaded. A command that runs until Ctrl-C (`sandbox`) is given `interruptWhen`:
 * SIGINT is sent once its output (stdout and stderr) matches, and what it loaded until it exits is recorded.
 */
export async function loadedBy(
  args: string[],
  home: TempHome,
  env: Record<string, string | undefined> = {},
  opts: { interruptWhen?: RegExp } = {},
): Promise<Loaded> {
  const n = ++runs;
  const record = join(home.dir, `imports-${n}.txt`);
  const coverage = join(home.dir, `coverage-${n}`);
  mkdirSync(coverage);
  const child = proxyctl(args, {
    home,
    env: { ...env, NODE_OPTIONS: `--import=${HOOK}`, RECORD_IMPORTS: record, NODE_V8_COVERAGE: coverage },
  });
  const until = opts.interruptWhen;
  if (until) {
    let seen = '';
    const look = (c: Buffer) => {
      seen += c.toString('utf8');
      if (until.test(seen)) child.kill('SIGINT');
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
  }
  const r = await child;
  const files = [...new Set(readFileSync(record, 'utf8').split('\n').filter(Boolean))];
  const booted = files.some((f) => f.endsWith('/dist/cli.cjs'));
  const modules = bundleModules(coverage);
  // Booted but no coverage of the bundle: the recording failed, and an empty set would pass any test.
  if (booted && !modules) throw new Error(`loadedBy(${args.join(' ')}): no coverage of dist/cli.cjs (exit ${r.exitCode}): ${r.stderr}`);
  const packages = new Set<string>();
  for (const p of [...files, ...(modules ?? [])]) {
    const pkg = packageOf(p);
    if (pkg) packages.add(pkg);
  }
  return {
    exitCode: r.exitCode,
    stdout: String(r.stdout),
    stderr: String(r.stderr),
    bundleRan: modules !== undefined,
    packages,
    sources: new Set([...(modules ?? [])].filter((m) => m.startsWith('src/'))),
    modules: modules ?? new Set(),
    builtins: new Set(files.filter((u) => u.startsWith('node:'))),
    files,
  };
}
