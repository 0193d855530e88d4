// Bundles src/ into dist/ as ESM with code splitting: every command group is a dynamic import,
// so `proxyctl --help` loads only the entry chunk. Dependencies stay external (installed by npm).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
rmSync(dist, { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
