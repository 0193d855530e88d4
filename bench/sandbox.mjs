#!/usr/bin/env node
// Simple-GET throughput of the sandbox: the built binary serves in its own process, a loopback
// load generator (node:http, keep-alive, N concurrent connections) hammers GET endpoints for a
// few seconds and counts 200s. Target: >= 2,000 requests per second.
//   node bench/sandbox.mjs [--seconds 5] [--connections 16] [--min 2000]
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    min: { type: 'string', default: '2000' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const { child, info } = await spawnSandbox(['--rate-limit', '1000000000']);
const baseline = await spawnBaseline();

const agent = new Agent({ keepAlive: true, maxSockets: connections });
let url = new URL(info.baseUrl);

async function spawnBaseline() {
  const proc = spawn(process.execPath, [fileURLToPath(new URL('baseline-server.mjs', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise((resolve) => proc.stdout.once('data', (c) => resolve(JSON.parse(String(c).split('\n')[0]))));
  return { proc, info: first };
}

/** Peak resident memory of a process (VmHWM), in MiB. */
function peakRssMiB(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

function get(path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, agent, headers: { 'x-api-key': info.apiKey } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end();
  });
}

async function run(path) {
  for (let i = 0; i < 200; i++) await get(path); // warm-up
  let ok = 0;
  let other = 0;
  const end = performance.now() + seconds * 1000;
  const latencies = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const status = await get(path);
        latencies.push(performance.now() - t);
        if (status === 200) ok++;
        else other++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2);
  return { path, rps: Math.round(ok / seconds), ok, other, p50ms: p(0.5), p99ms: p(0.99) };
}

const results = [];
let baselineResult;
let sandboxRss = NaN;
let baselineRss = NaN;
try {
  // A few units so the list has something to render.
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/reseller/v1/units',
          method: 'POST',
          agent,
          headers: { 'x-api-key': info.apiKey, 'content-type': 'application/json' },
        },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject);
      req.end(JSON.stringify({ poolId: 'US-11', period: '30d' }));
    });
  }
  // Same generator, same machine, same run: a bare node:http server with a fixed body, measured
  // before and after the sandbox so a drift in machine load shows up in both.
  const sandboxUrl = url;
  url = new URL(baseline.info.baseUrl);
  const before = await run('/api/reseller/v1/prices');
  url = sandboxUrl;
  for (const path of ['/api/reseller/v1/account', '/api/reseller/v1/prices', '/api/reseller/v1/units?pageSize=20'])
    results.push(await run(path));
  sandboxRss = peakRssMiB(child.pid);
  url = new URL(baseline.info.baseUrl);
  const after = await run('/api/reseller/v1/prices');
  baselineResult = {
    ...after,
    rps: Math.round((before.rps + after.rps) / 2),
    p50ms: after.p50ms,
    p99ms: after.p99ms,
    spread: `${before.rps}/${after.rps}`,
  };
  baselineRss = peakRssMiB(baseline.proc.pid);
} finally {
  agent.destroy();
  child.kill('SIGTERM');
  baseline.proc.kill('SIGTERM');
}

console.log(`sandbox GET throughput: ${connections} connections, ${seconds} s each, node ${process.version}`);
for (const r of results)
  console.log(`  ${r.path.padEnd(36)} ${String(r.rps).padStart(7)} req/s   p50 ${r.p50ms} ms   p99 ${r.p99ms} ms   non-200: ${r.other}`);
console.log(
  `  baseline: bare node:http, fixed body        ${String(baselineResult.rps).padStart(7)} req/s   (before/after: ${baselineResult.spread})`,
);
for (const r of results) console.log(`  ratio ${r.path.padEnd(36)} ${(r.rps / baselineResult.rps).toFixed(2)}× baseline`);
console.log(`  peak RSS: sandbox ${sandboxRss} MiB, baseline ${baselineRss} MiB (${(sandboxRss / baselineRss).toFixed(2)}×)`);
const worst = Math.min(...results.map((r) => r.rps));
const min = Number(values.min);
if (worst < min || results.some((r) => r.other > 0)) {
  console.error(`FAIL: slowest endpoint ${worst} req/s (target ${min}), or some answers were not 200`);
  process.exitCode = 1;
} else {
  console.log(`OK: slowest endpoint ${worst} req/s >= ${min}`);
}
