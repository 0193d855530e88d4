#!/usr/bin/env node
// `units check` at scale (issue 14): 200 sandbox units of every protocol checked with
// --concurrency 32, against a budget of 2 × the slowest single check × the rounds (ceil(200/32)).
// Not a test: timings are noisy; `npm run bench` writes the numbers into bench/RESULTS.md.
//   node bench/check.mjs [--units 200] [--concurrency 32] [--runs 3]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const arg = (name, byDefault) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : byDefault;
};
const UNITS = arg('units', 200);
const CONCURRENCY = arg('concurrency', 32);
const RUNS = arg('runs', 3);

const { child: sandbox, info } = await spawnSandbox(['--rate-limit', '1000000', '--balance', '1000000']);
const configDir = mkdtempSync(join(tmpdir(), 'proxyctl-bench-check-'));
const env = { ...process.env, PROXYCTL_BASE_URL: info.baseUrl, PROXYCTL_API_KEY: info.apiKey, PROXYCTL_CONFIG_DIR: configDir, CI: '1' };
for (const k of ['PROXYCTL_PROFILE', 'HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[k];
const api = (method, path, body) =>
  fetch(`${info.baseUrl}/api/reseller/v1${path}`, {
    method,
    headers: { 'x-api-key': info.apiKey, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

/** Runs the binary; returns wall time (ms), exit code and parsed JSON stdout. */
function cli(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const ms = performance.now() - t;
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { ms, code: r.status, json, stderr: r.stderr };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${Math.round(ms)} ms`;

try {
  // 200 units over the available pools, a third of each protocol.
  const pools = (await api('GET', '/pools?pageSize=200')).body.data.filter((p) => p.available).map((p) => p.poolId);
  const protocols = ['socks5', 'http', 'http_noauth'];
  const refs = [];
  for (let i = 0; i < UNITS; i += 20) {
    const batch = Array.from({ length: Math.min(20, UNITS - i) }, (_, j) => i + j);
    const made = await Promise.all(
      batch.map((n) => {
        const protocol = protocols[n % 3];
        return api('POST', '/units', {
          poolId: pools[n % pools.length],
          period: '24h',
          protocol,
          ...(protocol === 'http_noauth' ? { allowedIps: ['127.0.0.1'] } : {}),
        });
      }),
    );
    for (const m of made) {
      if (m.status !== 201 && m.status !== 200) throw new Error(`buying failed: ${m.status} ${JSON.stringify(m.body)}`);
      refs.push(m.body.proxyRef);
    }
  }

  // The cost of one run apart from its checks: start-up, the API, the target lookup.
  const single = [];
  for (let i = 0; i < RUNS; i++) single.push(cli(['units', 'check', refs[0], '--json']));
  const overhead = median(single.map((r) => r.ms - (r.json?.[0]?.latencyMs ?? 0)));

  // Every unit alone (one at a time): the slowest single check.
  const alone = cli(['units', 'check', '--all', '--concurrency', '1', '--json']);
  if (alone.code !== 0) throw new Error(`the one-at-a-time run failed (exit ${alone.code}): ${alone.stderr}`);
  const latencies = alone.json.map((r) => r.latencyMs);
  const slowest = Math.max(...latencies);

  const wide = [];
  for (let i = 0; i < RUNS; i++) {
    const r = cli(['units', 'check', '--all', '--concurrency', String(CONCURRENCY), '--json']);
    if (r.code !== 0 || r.json.length !== UNITS) throw new Error(`the concurrent run failed (exit ${r.code}): ${r.stderr}`);
    wide.push(r.ms);
  }
  const rounds = Math.ceil(UNITS / CONCURRENCY);
  const budget = 2 * slowest * rounds;
  const checking = median(wide) - overhead;
  console.log(`units: ${UNITS} (socks5, http, http_noauth in turn, over ${Math.min(pools.length, UNITS)} pools)`);
  console.log(`one at a time:       ${fmt(alone.ms)} wall; per check median ${median(latencies)} ms, slowest ${slowest} ms`);
  console.log(`run overhead:        ${fmt(overhead)} (start-up, API, target; median of ${RUNS} one-unit runs minus their check)`);
  console.log(`--concurrency ${CONCURRENCY}:    ${fmt(median(wide))} wall (median of ${RUNS}), ${fmt(checking)} checking`);
  console.log(`budget:              2 × ${slowest} ms × ${rounds} rounds = ${fmt(budget)}`);
  console.log(`within budget:       ${checking <= budget ? 'yes' : 'NO'} (${(checking / budget).toFixed(2)} of it)`);
  process.exitCode = checking <= budget ? 0 : 1;
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((r) => sandbox.once('exit', r));
  rmSync(configDir, { recursive: true, force: true });
}
