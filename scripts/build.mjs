// Bundles src/ into dist/ as ESM with code splitting: every command group is a dynamic import,
// so `proxyctl --help` loads only the entry chunk. Dependencies stay external (installed by npm).
// The SDK (`import … from 'proxyctl'`, src/sdk.ts) is a second, separate bundle (dist/sdk.js), so
// the CLI's chunks stay exactly as they are, and tsc writes its type declarations to dist/types.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Environment variables under which `--help` may print other text than dist/help.txt (bin/proxyctl.js). */
const HELP_ENV_TAKES_FULL_PATH = ['FORCE_COLOR', 'CLICOLOR_FORCE'];

const dist = new URL('../dist/', import.meta.url);
rmSync(dist, { recursive: true, force: true });

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};

await Promise.all([
  build({ ...common, entryPoints: { cli: 'src/cli.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunks/[name]-[hash]' }),
  build({ ...common, entryPoints: { sdk: 'src/sdk.ts' }, outdir: 'dist' }),
]);

// Declarations only (esbuild does not write them); tsconfig.build.json starts from src/sdk.ts.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: new URL('..', import.meta.url), stdio: 'inherit' });

// `proxyctl --help` exactly as the CLI prints it to a pipe, kept beside the bundle: bin/proxyctl.js
// prints this file for a lone `--help`/`-h` into a pipe without loading commander and the command
// tree (a script reading the help paid ~50 ms more than Node's own start; bench/RESULTS.md).
// Generated from the bundle just built, so it cannot go stale; a TTY (wrapped to its width) and
// FORCE_COLOR/CLICOLOR_FORCE take the full path. test/e2e/help-fast-path.test.ts compares the two.
// Colour variables are dropped here because the fast path leaves them to the full path.
const env = { ...process.env };
for (const k of HELP_ENV_TAKES_FULL_PATH) delete env[k];
for (const k of Object.keys(env)) if (k.startsWith('PROXYCTL_') || k === 'NODE_OPTIONS') delete env[k];
const help = spawnSync(
  process.execPath,
  // argv[1] is the '-e' script's first argument; run() reads argv from [2] on, as under the bin.
  ['--input-type=module', '-e', `(await import(${JSON.stringify(new URL('cli.js', dist).href)})).run();`, '--', 'proxyctl', '--help'],
  { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
);
if (help.status !== 0 || help.stderr) throw new Error(`building dist/help.txt: proxyctl --help exited ${help.status}: ${help.stderr}`);
writeFileSync(new URL('help.txt', dist), help.stdout);
