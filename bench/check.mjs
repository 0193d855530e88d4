#!/usr/bin/env node
// `units check` at scale (issue 14): 200 sandbox units of every protocol checked with
// --concurrency 32, against a budget of 2 × the slowest single check × the rounds (ceil(200/32)).
// Two targets: a loopback one that answers after --delay ms, as a remote site would (the checks
// wait on the network, which is what concurrency is for: the budget is the criterion), and
// the sandbox's own echo (no wait: the checks are CPU work shared by this machine's cores, so
// concurrency can only use the cores; reported for what it costs).
// Not a test: timings are noisy; `npm run bench` writes the numbers into bench/RESULTS.md.
//   node bench/check.mjs [--units 200] [--concurrency 32] [--runs 3] [--delay 100]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const arg = (name, byDefault) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : byDefault;
};
const UNITS = arg('units', 200);
const CONCURRENCY = arg('concurrency', 32);
const RUNS = arg('runs', 3);
const DELAY = arg('delay', 100);

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

/** Runs the binary (not spawnSync: this process serves the delayed target); wall time, exit code, JSON stdout. */
function cli(args) {
  return new Promise((resolve) => {
    const t = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('close', (code) => {
      const ms = performance.now() - t;
      let json;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ ms, code, json, stderr });
    });
  });
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

  // A target DELAY ms away, as a remote site would be; it says what address it saw, like the echo.
  const remote = createServer((req, res) => {
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ sourceAddress: req.socket.remoteAddress }));
    }, DELAY);
  });
  await new Promise((r) => remote.listen(0, '127.0.0.1', r));
  const remoteUrl = `http://127.0.0.1:${remote.address().port}/`;

  let within = true;
  for (const [name, target] of [
    [`a target ${DELAY} ms away`, ['--target', remoteUrl]],
    ['the sandbox echo (no wait)', []],
  ]) {
    // The cost of one run apart from its checks: start-up, the API, the target lookup.
    const single = [];
    for (let i = 0; i < RUNS; i++) single.push(await cli(['units', 'check', refs[0], '--json', ...target]));
    const overhead = median(single.map((r) => r.ms - (r.json?.[0]?.latencyMs ?? 0)));
    // Every unit alone (one at a time): the slowest single check.
    const alone = await cli(['units', 'check', '--all', '--concurrency', '1', '--json', ...target]);
    if (alone.code !== 0) throw new Error(`the one-at-a-time run failed (exit ${alone.code}): ${alone.stderr}`);
    const latencies = alone.json.map((r) => r.latencyMs);
    const slowest = Math.max(...latencies);
    const wide = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await cli(['units', 'check', '--all', '--concurrency', String(CONCURRENCY), '--json', ...target]);
      if (r.code !== 0 || r.json.length !== UNITS) throw new Error(`the concurrent run failed (exit ${r.code}): ${r.stderr}`);
      wide.push(r.ms);
    }
    const rounds = Math.ceil(UNITS / CONCURRENCY);
    const budget = 2 * slowest * rounds;
    const checking = median(wide) - overhead;
    if (name.startsWith('a target')) within = checking <= budget;
    console.log(`${name}:`);
    console.log(`  one at a time:     ${fmt(alone.ms)} wall; per check median ${median(latencies)} ms, slowest ${slowest} ms`);
    console.log(`  run overhead:      ${fmt(overhead)} (start-up, API, target; median of ${RUNS} one-unit runs minus their check)`);
    console.log(`  --concurrency ${CONCURRENCY}: ${fmt(median(wide))} wall (median of ${RUNS}), ${fmt(checking)} checking`);
    console.log(`  budget:            2 × ${slowest} ms × ${rounds} rounds = ${fmt(budget)}`);
    console.log(`  within budget:     ${checking <= budget ? 'yes' : 'NO'} (${(checking / budget).toFixed(2)} of it)`);
  }
  remote.close();
  console.log(
    `units: ${UNITS} (socks5, http, http_noauth in turn, over ${Math.min(pools.length, UNITS)} pools); load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`,
  );
  process.exitCode = within ? 0 : 1;
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((r) => sandbox.once('exit', r));
  rmSync(configDir, { recursive: true, force: true });
}
