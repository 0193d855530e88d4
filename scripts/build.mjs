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
import { dirname, join } from 'node:path';
import { lazyCommanderChildProcess, lazyUndiciH2, llhttpTieringBudget } from './lib/bundle-plugins.mjs';

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
    // The CLI's V8 flag for llhttp, set when undici first compiles it (see there).
    plugins: [...common.plugins, llhttpTieringBudget],
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
