// The MCP inspector (@modelcontextprotocol/inspector), an MCP client written independently of
// proxyctl, whose command-line mode test/mcp/inspector.test.ts points at `proxyctl mcp`. It is not
// a dependency of the package (it brings a web UI, a TUI and their bundler): it is installed from
// the npm registry into node_modules/.cache/proxyctl-inspector/<version>/ (scripts/lib/cache-install.mjs),
// pinned so a new release cannot change the test under us, and run on Node 24 because its
// engines need 22.19 or newer while this project's floor is 20.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, installInto } from './cache-install.mjs';
import { nodeBinary } from './node-binary.mjs';

export const INSPECTOR_VERSION = '2.12.0';
const NAME = '@modelcontextprotocol/inspector';

/** The Node 24 binary and the inspector's entry script, each installed when missing. */
export async function inspector() {
  const [node, entry] = await Promise.all([nodeBinary('24'), inspectorEntry()]);
  return { node, entry, version: INSPECTOR_VERSION };
}

async function inspectorEntry() {
  const dir = cacheDir('proxyctl-inspector', INSPECTOR_VERSION);
  const pkgFile = join(dir, 'node_modules', ...NAME.split('/'), 'package.json');
  if (installedVersion(pkgFile) !== INSPECTOR_VERSION) await installInto(dir, `${NAME}@${INSPECTOR_VERSION}`);
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  if (pkg.version !== INSPECTOR_VERSION) throw new Error(`npm installed ${NAME} ${pkg.version} for ${INSPECTOR_VERSION}`);
  return join(pkgFile, '..', pkg.bin.inspector);
}

const installedVersion = (pkgFile) => (existsSync(pkgFile) ? JSON.parse(readFileSync(pkgFile, 'utf8')).version : undefined);
