#!/usr/bin/env node
// `npm run bench`: runs every benchmark in turn and writes bench/RESULTS.md with the date, the
// machine and the Node versions above their output. The CLI's figures are measured on Node 24
// (installed from the npm registry as `npm test` installs it, scripts/lib/node-binary.mjs) and on
// this machine's Node, in one run; `spend`/`status` over a growing ledger on Node 24; the sandbox, `units check`, purchase records and shared-ledger
// benches run on this machine's Node. The hand-written analysis below the ANALYSIS marker in RESULTS.md is kept as
// it is. Not part of `npm test` (timings are noisy). Needs nothing beyond `npm ci` (no hyperfine).
//   node bench/run.mjs [--runs 15] [--skip-create]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, type as osType } from 'node:os';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from '../scripts/lib/node-binary.mjs';

const args = process.argv.slice(2);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const run = (file, extra) => {
  const r = spawnSync(process.execPath, [here(file), ...extra], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(r.stdout);
  return { status: r.status, ok: r.status === 0, out: r.stdout };
};

const node24 = await nodeBinary('24');
const version24 = execFileSync(node24, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
const loadBefore = loadavg()[0];
// Exit 3: measured, and a target missed (the section says which).
// Node 24 three times (issue 33 judges its targets over three runs); this machine's Node once.
const cli = run('cli.mjs', ['--node', node24, '--node', process.execPath, '--repeat', '3', ...args]);
const sandbox = run('sandbox.mjs', []);
const check = run('check.mjs', []);
const records = run('records.mjs', []);
const ledger = run('ledger.mjs', []);
const ledgerStream = run('ledger-stream.mjs', ['--node', node24]);
const loadAfter = loadavg()[0];

const MARKER = '<!-- ANALYSIS: everything below is kept by bench/run.mjs -->';
const resultsFile = here('RESULTS.md');
const old = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
const analysis = old.includes(MARKER) ? old.slice(old.indexOf(MARKER)) : `${MARKER}\n`;
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
const header = [
  '# Benchmark results',
  '',
  '`npm run bench` writes the measured part of this file. Every figure is compared with a baseline',
  'measured in the same run on the same machine, because these machines are noisy; no test asserts timings.',
  '',
  `- Date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
  `- Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ${osType()}; load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end`,
  `- Node: ${version24} (from the npm registry) and ${process.version} (this machine's) for the CLI; ${process.version} for the sandbox, \`units check\` and the purchase records`,
  `- Commit: ${commit || 'unknown'}`,
  '',
].join('\n');
const body = [
  cli.status === 0 || cli.status === 3 ? cli.out : `## CLI against node:http\n\nFAILED (see the console output)\n`,
  '## Sandbox: simple GETs per second (`bench/sandbox.mjs`)',
  '',
  'A node:http load generator (16 keep-alive connections) against the built binary serving `proxyctl sandbox`, and against a bare node:http server answering a fixed body. Target: ≥ 2,000 req/s.',
  '',
  '```',
  sandbox.out.trim(),
  '```',
  '',
  '## `units check`: 200 units at --concurrency 32 (`bench/check.mjs`)',
  '',
  'Sandbox units of every protocol (real proxies on loopback), each checked through its own proxy against the sandbox echo. Target: the checking time within 2 × the slowest single check × ceil(200/32) rounds.',
  '',
  '```',
  check.ok ? check.out.trim() : `FAILED\n${check.out.trim()}`,
  '```',
  '',
  records.ok ? records.out : '## Purchase records: local work per purchase (`bench/records.mjs`)\n\nFAILED (see the console output)\n',
  ledger.ok ? ledger.out : '## Shared ledger (PostgreSQL): what it adds (`bench/ledger.mjs`)\n\nFAILED (see the console output)\n',
  ledgerStream.status === 0 || ledgerStream.status === 3
    ? ledgerStream.out
    : '## Ledger: `spend` and `status` over a growing journal (`bench/ledger-stream.mjs`)\n\nFAILED (see the console output)\n',
].join('\n');
writeFileSync(resultsFile, `${header}\n${body}\n${analysis}`);
// The tables padded as `biome ci` (part of npm test) wants them.
spawnSync(fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url)), ['format', '--write', resultsFile], { stdio: 'ignore' });
console.log(`wrote ${resultsFile}`);
process.exitCode = cli.ok && sandbox.ok && check.ok && records.ok && ledger.ok && ledgerStream.ok ? 0 : 1;
