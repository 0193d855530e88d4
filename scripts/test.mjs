// `npm test` after the checks and the build: the suite on this machine's Node, less the end-to-end
// set that runs on Node 24 (scripts/lib/e2e-sets.mjs), then the end-to-end runs on Node 24, 22 and
// 20.18.1 (scripts/test-node-versions.mjs). The suite's CPU has to fit two cores in the time the
// README states, and the end-to-end files are the costliest to run twice. `npx vitest run` alone
// still runs every file on this Node.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ON_24 } from './lib/e2e-sets.mjs';

const root = join(import.meta.dirname, '..');
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const skipped = process.env.PROXYCTL_SKIP_NODE_VERSIONS === '1';
// Without the other Nodes' runs, nothing is left out here.
const exclude = skipped ? [] : ON_24.flatMap((f) => ['--exclude', f.endsWith('/') ? `${f}**` : f]);
const main = spawnSync(process.execPath, [vitest, 'run', ...exclude], { cwd: root, stdio: 'inherit' });
if (main.status !== 0) process.exit(main.status ?? 1);
const others = spawnSync(process.execPath, [join(root, 'scripts', 'test-node-versions.mjs')], { cwd: root, stdio: 'inherit' });
process.exit(others.status ?? 1);
