#!/usr/bin/env node
// Start-up cost of the CLI, as ratios against a baseline measured in the same run:
//  - `proxyctl --version` and `--help` against `node -e 0` (the floor any Node CLI pays);
//  - `proxyctl prices --json` against a bare node script doing the same GET with fetch,
//    both against the same sandbox, so the ratio is the tool's own overhead.
//   node bench/startup.mjs [--runs 15]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), 'proxyctl-bench-'));

function median(args, env = {}) {
  const times = [];
  for (let i = 0; i < runs + 2; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, {
      env: { ...process.env, PROXYCTL_CONFIG_DIR: join(dir, 'cfg'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i >= 2) times.push(ms); // two warm-up runs fill the page cache
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const { child, info } = await spawnSandbox(['--rate-limit', '1000000000']);
const rawScript = join(dir, 'raw-get.mjs');
writeFileSync(
  rawScript,
  `const r = await fetch(process.env.URL + '/api/reseller/v1/prices', { headers: { 'x-api-key': process.env.KEY } });\nprocess.stdout.write(JSON.stringify((await r.json()).prices));\n`,
);
let rows;
try {
  const env = { PROXYCTL_BASE_URL: info.baseUrl, PROXYCTL_API_KEY: info.apiKey };
  const nodeFloor = median(['-e', '0']);
  const version = median([BIN, '--version']);
  const help = median([BIN, '--help']);
  const raw = median([rawScript], { URL: info.baseUrl, KEY: info.apiKey });
  const prices = median([BIN, 'prices', '--json'], env);
  rows = [
    ['proxyctl --version', version, 'node -e 0', nodeFloor],
    ['proxyctl --help', help, 'node -e 0', nodeFloor],
    ['proxyctl prices --json', prices, 'node + fetch, same GET', raw],
  ];
} finally {
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`CLI start-up, median of ${runs} runs, node ${process.version}`);
for (const [name, ms, base, baseMs] of rows) {
  console.log(
    `  ${name.padEnd(24)} ${ms.toFixed(1).padStart(7)} ms   baseline ${base.padEnd(24)} ${baseMs.toFixed(1).padStart(7)} ms   ${(ms / baseMs).toFixed(2)}×`,
  );
}
