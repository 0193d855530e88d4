// Node 20 is the floor, and users run 22 and 24 too. `npm test` ends here (scripts/test.mjs): after
// the suite on this machine's Node, the end-to-end set runs with the spawned binary on Node 24, and
// its core on 22 and on 20.18.1 (engines' exact floor) (scripts/lib/e2e-sets.mjs), each Node
// installed from the npm registry (scripts/lib/node-binary.mjs). Vitest itself stays on this Node;
// the tests spawn the binary with PROXYCTL_TEST_NODE (test/helpers/cli.ts), and that Node is first
// on PATH for tests that spawn through a shell. test/e2e/node-version.test.ts checks the binary
// really ran on it. Exit 1 if any run fails.
//
// Usage: node scripts/test-node-versions.mjs [22|24|20.18.1 ...]   (default: all three, in parallel)
// PROXYCTL_SKIP_NODE_VERSIONS=1 skips it (for a quick local `npm test`; CI never sets it).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { CORE, ON_24 } from './lib/e2e-sets.mjs';
import { nodeBinary } from './lib/node-binary.mjs';

const root = join(import.meta.dirname, '..');

const RUNS = { 22: CORE, 24: ON_24, '20.18.1': CORE };

if (process.env.PROXYCTL_SKIP_NODE_VERSIONS === '1') {
  console.log('test-node-versions: skipped (PROXYCTL_SKIP_NODE_VERSIONS=1)');
  process.exit(0);
}
const wanted = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(RUNS);
for (const v of wanted) if (!RUNS[v]) throw new Error(`unknown version ${v} (one of ${Object.keys(RUNS).join(', ')})`);

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

/** One vitest run of `files` with the binary on `bin`; its output is printed whole when it ends. */
function suite(version, bin, files) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', '--reporter=dot', ...files], {
      cwd: root,
      env: {
        ...process.env,
        PROXYCTL_TEST_NODE: bin,
        PROXYCTL_EXPECT_NODE: version,
        PATH: `${dirname(bin)}${delimiter}${process.env.PATH}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`\n── Node ${version} (${bin}): ${code === 0 ? 'passed' : 'FAILED'} in ${seconds}s ──\n${out.trimEnd()}`);
      resolve(code === 0);
    });
  });
}

const started = Date.now();
const bins = await Promise.all(wanted.map(nodeBinary));
console.log(`test-node-versions: Node ${wanted.join(', ')} ready in ${Math.round((Date.now() - started) / 1000)}s`);
const results = await Promise.all(wanted.map((v, i) => suite(v, bins[i], RUNS[v])));
const failed = wanted.filter((_, i) => !results[i]);
console.log(
  `test-node-versions: ${failed.length === 0 ? 'all passed' : `FAILED on Node ${failed.join(', ')}`} (${Math.round((Date.now() - started) / 1000)}s)`,
);
process.exit(failed.length === 0 ? 0 : 1);
