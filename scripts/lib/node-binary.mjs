// Other Node versions from the npm registry, which ships Node itself as the `node` package: each
// version is installed once into node_modules/.cache/proxyctl-node/<version>/ (scripts/lib/cache-install.mjs).
// Used by scripts/test-node-versions.mjs (the e2e set on 22, 24 and the floor), bench/run.mjs (Node
// 24 beside this machine's Node) and scripts/lib/inspector.mjs (the MCP inspector needs Node 22.19+).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, installInto, run } from './cache-install.mjs';

/** node_modules/.cache/proxyctl-node/<version>/node_modules/.bin/node, installed when missing or not that version. */
export async function nodeBinary(version) {
  const dir = cacheDir('proxyctl-node', version);
  const bin = join(dir, 'node_modules', '.bin', 'node');
  if (existsSync(bin) && matches(await versionOf(bin).catch(() => ''), version)) return bin;
  await installInto(dir, `node@${version}`);
  const got = await versionOf(bin);
  if (!matches(got, version)) throw new Error(`npm installed Node ${got} for node@${version}`);
  return bin;
}

const versionOf = async (bin) => (await run(bin, ['-p', 'process.versions.node'])).stdout.trim();
const matches = (got, version) => got === version || got.startsWith(`${version}.`);
