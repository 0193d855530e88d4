// Tools the test suite and the benchmarks run but the package does not depend on (other Node
// versions, the MCP inspector), each installed from the npm registry into its own directory under
// node_modules/.cache/: outside package.json and the lockfile, reused by later runs, fetched from
// npm's cache when it has them.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(import.meta.dirname, '..', '..');
export const run = promisify(execFile);

/** node_modules/.cache/<...parts> of this repository. */
export const cacheDir = (...parts) => join(root, 'node_modules', '.cache', ...parts);

/** `npm install <spec>` into `dir`, which is created when missing. */
export async function installInto(dir, spec) {
  mkdirSync(dir, { recursive: true });
  // Its own package.json, so npm installs here and not into the repository above it.
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  await run('npm', ['install', spec, '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], { cwd: dir });
}
