// Other Node versions from the npm registry, which ships Node itself as the `node` package: each
// version is installed once into node_modules/.cache/proxyctl-node/<version>/ (outside the
// project's dependencies; later runs reuse it, installs prefer npm's cache). Used by
// scripts/test-node-versions.mjs (the e2e set on 22, 24 and the floor) and bench/run.mjs (Node 24
// beside this machine's Node).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** node_modules/.cache/proxyctl-node/<version>/node_modules/.bin/node, installed when missing or not that version. */
export async function nodeBinary(version) {
  const dir = join(root, 'node_modules', '.cache', 'proxyctl-node', version);
  const bin = join(dir, 'node_modules', '.bin', 'node');
  if (existsSync(bin) && matches(await versionOf(bin).catch(() => ''), version)) return bin;
  mkdirSync(dir, { recursive: true });
  // Its own package.json, so npm installs here and not into the repository above it.
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  await run('npm', ['install', `node@${version}`, '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
    cwd: dir,
  });
  const got = await versionOf(bin);
  if (!matches(got, version)) throw new Error(`npm installed Node ${got} for node@${version}`);
  return bin;
}

const versionOf = async (bin) => (await run(bin, ['-p', 'process.versions.node'])).stdout.trim();
const matches = (got, version) => got === version || got.startsWith(`${version}.`);
