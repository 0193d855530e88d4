// Bundles src/ into dist/ as ESM with code splitting: every command group is a dynamic import,
// so `proxyctl --help` loads only the entry chunk. Dependencies stay external (installed by npm).
// The SDK (`import … from 'proxyctl'`, src/sdk.ts) is a second, separate bundle (dist/sdk.js), so
// the CLI's chunks stay exactly as they are, and tsc writes its type declarations to dist/types.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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
