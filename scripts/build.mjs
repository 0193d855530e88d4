// Bundles src/ into dist/:
// - dist/cli.cjs: the whole CLI in one CommonJS file, with undici and commander inside it, started by
//   bin/proxyctl.js with Node's own compile cache turned on where Node has one (22.1+). One file to
//   read instead of dozens to resolve, read and compile (bench/RESULTS.md). Commands stay lazy: each
//   command group is an import() in the source, which esbuild wraps so its code runs only when
//   called. Packages only some commands use (prompts, tables, spinners, colours, locks, socks) stay
//   outside, loaded from node_modules on demand.
// - dist/sdk.js (`import … from 'proxyctl'`, src/sdk.ts): ES module, undici inside as in the CLI.
// tsc writes the SDK's type declarations to dist/types.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';

/** Environment variables under which `--help` may print other text than dist/help.txt (bin/proxyctl.js). */
const HELP_ENV_TAKES_FULL_PATH = ['FORCE_COLOR', 'CLICOLOR_FORCE'];

const dist = new URL('../dist/', import.meta.url);
rmSync(dist, { recursive: true, force: true });

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/**
 * `dependencies` are what a command may load from node_modules on demand (prompts, tables, spinners,
 * colours, locks, socks), except undici: bundled, as every command needs it, and a dependency still
 * because the SDK's types name it. Packages every command needs (commander, env-paths: an ES module
 * whose import() would start Node's ES module loader) are devDependencies, bundled.
 */
const BUNDLED = ['undici'];
const onDemand = Object.keys(pkg.dependencies).filter((d) => !BUNDLED.includes(d));
const external = onDemand.flatMap((d) => [d, `${d}/*`]);

/**
 * undici's client requires its HTTP/2 client at load, and with it node:http2 (time and memory a plain request never needs),
 * though it is used only when TLS negotiates h2, which needs `allowH2` (never set). In the bundle
 * that require gets a stand-in which loads the real one (bundled too) on its first call.
 */
const lazyUndiciH2 = {
  name: 'lazy-undici-h2',
  setup(b) {
    const client = `${sep}undici${sep}lib${sep}dispatcher${sep}client.js`;
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (a) =>
      a.importer.endsWith(client)
        ? { path: 'undici/lib/dispatcher/client-h2.js', namespace: 'lazy', pluginData: dirname(a.importer) }
        : undefined,
    );
    // The stand-in's require('./client-h2.js') is resolved as usual (its importer is not client.js).
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (a) => ({
      contents: `let connectH2;
module.exports = function lazyConnectH2(...args) {
  connectH2 ??= require('./client-h2.js');
  return connectH2.apply(this, args);
};`,
      loader: 'js',
      resolveDir: a.pluginData,
    }));
  },
};

/**
 * commander requires node:child_process at load, for executable subcommands (`git-style` commands
 * run as separate programs), which proxyctl never declares; loading it costs every command's start
 * (bench/RESULTS.md). In the bundle that require becomes a getter which loads it on first use.
 */
const lazyCommanderChildProcess = {
  name: 'lazy-commander-child-process',
  setup(b) {
    const command = `${sep}commander${sep}lib${sep}command.js`;
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (a) => {
      if (!a.path.endsWith(command)) return undefined;
      const source = readFileSync(a.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`${a.path}: commander no longer requires node:child_process as expected`);
      return {
        contents: source.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"),
        loader: 'js',
      };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  external,
  plugins: [lazyUndiciH2, lazyCommanderChildProcess],
  sourcemap: 'linked',
  logLevel: 'warning',
};

await Promise.all([
  // Whitespace only (names stay, for stack traces): less to read and less held (bench/RESULTS.md).
  build({
    ...common,
    entryPoints: { cli: 'src/cli.ts' },
    outfile: 'dist/cli.cjs',
    format: 'cjs',
    minifyWhitespace: true,
  }),
  build({
    ...common,
    entryPoints: { sdk: 'src/sdk.ts' },
    outdir: 'dist',
    format: 'esm',
    // undici's own require() calls, inside an ES module.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  }),
]);

// Declarations only (esbuild does not write them); tsconfig.build.json starts from src/sdk.ts.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: new URL('..', import.meta.url), stdio: 'inherit' });

// `proxyctl --help` exactly as the CLI prints it to a pipe, kept beside the bundle: bin/proxyctl.js
// prints this file for a lone `--help`/`-h` into a pipe without loading commander and the command
// tree (so a script reading the help pays little more than Node's own start; bench/RESULTS.md).
// Generated from the bundle just built, so it cannot go stale; a TTY (wrapped to its width) and
// FORCE_COLOR/CLICOLOR_FORCE take the full path. test/e2e/help-fast-path.test.ts compares the two.
// Colour variables are dropped here because the fast path leaves them to the full path.
const env = { ...process.env };
for (const k of HELP_ENV_TAKES_FULL_PATH) delete env[k];
for (const k of Object.keys(env)) if (k.startsWith('PROXYCTL_') || k === 'NODE_OPTIONS') delete env[k];
const help = spawnSync(
  process.execPath,
  // argv[1] is the '-e' script's first argument; run() reads argv from [2] on, as under the bin.
  ['-e', `require(${JSON.stringify(new URL('cli.cjs', dist).pathname)}).run();`, '--', 'proxyctl', '--help'],
  { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
);
if (help.status !== 0 || help.stderr) throw new Error(`building dist/help.txt: proxyctl --help exited ${help.status}: ${help.stderr}`);
writeFileSync(new URL('help.txt', dist), help.stdout);
