#!/usr/bin/env node
// Every row of issue 11's table, each against a node:http baseline measured in the same run:
//  - `proxyctl --version` / `--help` against `node -e 0`;
//  - `units list --json` (20 units) against a node:http script doing the same GET and printing it;
//  - `units list --all -o conn` (10,000 units) against a node:http script paging the same list;
//  - peak memory (maxRSS: /usr/bin/time, else bench/maxrss.mjs) of each against its baseline;
//  - `units create --count 300` at 30 requests / 3 s against the rate bound, counting 429s.
// Runs are pairwise (command and baseline back to back, order alternating) so machine noise
// hits both; the figure is the median of the per-pair ratios, with min and max.
// Prints a markdown section on stdout (bench/run.mjs puts it into bench/RESULTS.md).
//   node bench/cli.mjs [--runs 15] [--skip-create | --only-create | --only-list] [--bin other/bin/proxyctl.js]
import { spawn, spawnSync } from 'node:child_process';
import { createServer, request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BIN as OWN_BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    'skip-create': { type: 'boolean', default: false },
    // Only the create row (a minute of wall time, no pairwise runs): for work on the pacing.
    'only-create': { type: 'boolean', default: false },
    // Only the two list time rows (`units list --json`, `--all -o conn`): for work on start-up.
    'only-list': { type: 'boolean', default: false },
    // Another build's bin/proxyctl.js (e.g. main's checkout), for before/after figures.
    bin: { type: 'string', default: OWN_BIN },
  },
});
const BIN = values.bin;
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), 'proxyctl-bench-'));
const MAXRSS = pathToFileURL(fileURLToPath(new URL('maxrss.mjs', import.meta.url))).href;
const baseEnv = { ...process.env, PROXYCTL_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1' };
for (const k of ['PROXYCTL_PROFILE', 'PROXYCTL_DEBUG', 'NODE_OPTIONS']) delete baseEnv[k];

/**
 * Peak memory: GNU time's maxRSS of the whole process life where /usr/bin/time exists; else
 * bench/maxrss.mjs, which reads it at 'exit' and so misses what V8's background threads still
 * allocate after (e.g. an optimising WebAssembly compile: ~35 MiB for llhttp before issue 11).
 */
const GNU_TIME = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0;
const MEMORY_HOW = GNU_TIME
  ? '`/usr/bin/time -f %M` (maxRSS over the whole life of the process)'
  : '`bench/maxrss.mjs` (maxRSS at exit; no /usr/bin/time here)';

/** One run: wall ms, or with memory: true the child's peak RSS in MiB. */
function once(args, env, { memory = false } = {}) {
  const rssFile = join(dir, 'rss.txt');
  rmSync(rssFile, { force: true });
  const hook = memory && !GNU_TIME ? { NODE_OPTIONS: `--import=${MAXRSS}`, MAXRSS_FILE: rssFile } : {};
  const [cmd, argv] =
    memory && GNU_TIME ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, ...args]] : [process.execPath, args];
  const t = performance.now();
  const r = spawnSync(cmd, argv, { env: { ...baseEnv, ...env, ...hook }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return memory ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Pairwise: A and B back to back, order alternating; ratios A/B. */
function pairwise(a, b, { memory = false, n = runs, warmup = 2 } = {}) {
  const as = [];
  const bs = [];
  const ratios = [];
  for (let i = 0; i < n + warmup; i++) {
    let x;
    let y;
    if (i % 2) {
      y = once(b.args, b.env, { memory });
      x = once(a.args, a.env, { memory });
    } else {
      x = once(a.args, a.env, { memory });
      y = once(b.args, b.env, { memory });
    }
    if (i < warmup) continue;
    as.push(x);
    bs.push(y);
    ratios.push(x / y);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

function script(name, text) {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
}

// The node:http baselines: the floor for any Node tool making the same requests.
const getOne = script(
  'get-units.mjs',
  `import { request } from 'node:http';
const req = request(process.env.URL + '/api/reseller/v1/units?pageSize=50', { headers: { 'x-api-key': process.env.KEY, accept: 'application/json' } }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (body += c));
  res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).data, null, 2) + '\\n'));
});
req.end();
`,
);
const pageAll = script(
  'page-units.mjs',
  `import { Agent, request } from 'node:http';
const agent = new Agent({ keepAlive: true });
const get = (page) => new Promise((resolve, reject) => {
  request(process.env.URL + '/api/reseller/v1/units?pageSize=200&page=' + page, { agent, headers: { 'x-api-key': process.env.KEY } }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (body += c));
    res.on('end', () => resolve(JSON.parse(body)));
  }).on('error', reject).end();
});
for (let page = 1; ; page++) {
  const r = await get(page);
  let out = '';
  for (const u of r.data) out += u.protocol + '://' + (u.credentials ? u.credentials.username + ':' + u.credentials.password + '@' : '') + u.ip + ':' + u.port + '\\n';
  process.stdout.write(out);
  if (!r.pagination.hasNext) break;
}
agent.destroy();
`,
);

/** Buys `n` units straight from the API (16 at a time). */
async function seed(info, n) {
  const pools = await (await fetch(`${info.baseUrl}/api/reseller/v1/pools`, { headers: { 'x-api-key': info.apiKey } })).json();
  const poolId = pools.data.find((p) => p.available).poolId;
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const r = await fetch(`${info.baseUrl}/api/reseller/v1/units`, {
        method: 'POST',
        headers: { 'x-api-key': info.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ poolId, period: '24h', protocol: 'socks5' }),
      });
      if (r.status !== 201) throw new Error(`seeding: ${r.status} ${await r.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return poolId;
}

const SANDBOX = ['--rate-limit', '1000000000', '--engine-delay', '0', '--balance', '1000000000'];
const rows = [];
const mem = [];
if (!values['only-create']) {
  const sb20 = await spawnSandbox(SANDBOX);
  const sb10k = await spawnSandbox(SANDBOX);
  try {
    await seed(sb20.info, 20);
    await seed(sb10k.info, 10_000);
    const floor = { args: ['-e', '0'], env: {} };
    const cli = (info, ...args) => ({ args: [BIN, ...args], env: { PROXYCTL_BASE_URL: info.baseUrl, PROXYCTL_API_KEY: info.apiKey } });
    const raw = (info, f) => ({ args: [f], env: { URL: info.baseUrl, KEY: info.apiKey } });

    if (!values['only-list']) {
      rows.push(['`proxyctl --version`', '`node -e 0`', pairwise({ args: [BIN, '--version'], env: {} }, floor), '≤ 1.10×']);
      rows.push(['`proxyctl --help`', '`node -e 0`', pairwise({ args: [BIN, '--help'], env: {} }, floor), '≤ 1.10×']);
    }
    rows.push([
      '`units list --json` (20 units)',
      'node:http GET + print',
      pairwise(cli(sb20.info, 'units', 'list', '--json'), raw(sb20.info, getOne)),
      '≤ 1.5×',
    ]);
    rows.push([
      '`units list --all -o conn` (10,000 units)',
      'node:http paging script',
      pairwise(cli(sb10k.info, 'units', 'list', '--all', '-o', 'conn'), raw(sb10k.info, pageAll), {
        n: Math.max(5, Math.ceil(runs / 3)),
        warmup: 1,
      }),
      '≤ 1.2×',
    ]);
    if (!values['only-list'])
      // For information: every run compiling the bundle, as the first run of a build on a Node does
      // (the rows above run with Node's compile cache, where the Node has one, as the bin turns it on).
      rows.push([
        '`units list --json` (20 units), no code cache',
        'node:http GET + print',
        pairwise(
          { args: [BIN, 'units', 'list', '--json'], env: { ...cli(sb20.info).env, NODE_DISABLE_COMPILE_CACHE: '1' } },
          raw(sb20.info, getOne),
        ),
        '— (information)',
      ]);
    const memRuns = Math.max(5, Math.ceil(runs / 3));
    if (!values['only-list']) {
      mem.push([
        '`units list --json` (20 units)',
        'node:http GET + print',
        pairwise(cli(sb20.info, 'units', 'list', '--json'), raw(sb20.info, getOne), { memory: true, n: memRuns, warmup: 0 }),
        '≤ 1.3×',
      ]);
      mem.push([
        '`units list --all -o conn` (10,000 units)',
        'node:http paging script',
        pairwise(cli(sb10k.info, 'units', 'list', '--all', '-o', 'conn'), raw(sb10k.info, pageAll), {
          memory: true,
          n: memRuns,
          warmup: 0,
        }),
        '≤ 80 MiB',
      ]);
      mem.push([
        '`proxyctl --version`',
        '`node -e 0`',
        pairwise({ args: [BIN, '--version'], env: {} }, floor, { memory: true, n: memRuns, warmup: 0 }),
        '',
      ]);
    }
  } finally {
    sb20.child.kill('SIGTERM');
    sb10k.child.kill('SIGTERM');
  }
}

let create;
if (!values['skip-create'] && !values['only-list']) create = await createAtRateLimit();
rmSync(dir, { recursive: true, force: true });

/**
 * `units create --count 300` against a sandbox allowing 30 requests per 3 s, through a counting
 * node:http proxy: wall time against the rate bound (requests ÷ 10 per second), and 429s.
 */
async function createAtRateLimit() {
  const sb = await spawnSandbox(['--rate-limit', '30', '--rate-window', '3', '--engine-delay', '0', '--balance', '1000000000']);
  const target = new URL(sb.info.baseUrl);
  const counts = { requests: 0, 429: 0 };
  const proxy = createServer((req, res) => {
    counts.requests++;
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      if (r.statusCode === 429) counts[429]++;
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${proxy.address().port}`;
  try {
    const pools = await (await fetch(`${sb.info.baseUrl}/api/reseller/v1/pools`, { headers: { 'x-api-key': sb.info.apiKey } })).json();
    const poolId = pools.data.find((p) => p.available).poolId;
    counts.requests = 0;
    const args = [BIN, 'units', 'create', '--pool', poolId, '--period', '24h', '--count', '300', '--yes', '--json'];
    const env = { ...baseEnv, PROXYCTL_BASE_URL: url, PROXYCTL_API_KEY: sb.info.apiKey };
    const t = performance.now();
    const code = await new Promise((resolve) => spawn(process.execPath, args, { env, stdio: 'ignore' }).on('exit', resolve));
    const s = (performance.now() - t) / 1000;
    if (code !== 0) throw new Error(`units create --count 300 exited ${code}`);
    const bound = (counts.requests * 3) / 30;
    return { s, requests: counts.requests, r429: counts[429], bound, ratio: s / bound };
  } finally {
    proxy.close();
    sb.child.kill('SIGTERM');
  }
}

const f1 = (n) => n.toFixed(1);
const f2 = (n) => `${n.toFixed(2)}×`;
const out = [];
out.push(`## CLI against node:http (\`bench/cli.mjs\`)\n`);
out.push(
  `Pairwise runs (command and baseline back to back, order alternating): ${runs} pairs for the short commands, ${Math.max(5, Math.ceil(runs / 3))} for the 10,000-unit list; ratios are medians of the per-pair ratios, with min–max. Peak memory: ${MEMORY_HOW}, the same for both sides.\n`,
);
out.push('| figure | proxyctl (median) | baseline | baseline (median) | ratio (median) | min–max | target |');
out.push('| --- | ---: | --- | ---: | ---: | ---: | --- |');
for (const [name, base, r, target] of rows)
  out.push(`| ${name} | ${f1(r.a)} ms | ${base} | ${f1(r.b)} ms | ${f2(r.ratio)} | ${r.min.toFixed(2)}–${r.max.toFixed(2)} | ${target} |`);
for (const [name, base, r, target] of mem)
  out.push(
    `| peak memory, ${name} | ${f1(r.a)} MiB | ${base} | ${f1(r.b)} MiB | ${f2(r.ratio)} | ${r.min.toFixed(2)}–${r.max.toFixed(2)} | ${target} |`,
  );
if (create)
  out.push(
    `| \`units create --count 300\` at 30 requests / 3 s | ${f1(create.s)} s, ${create.requests} requests, ${create.r429} × 429 | rate bound (requests ÷ 10/s) | ${f1(create.bound)} s | ${f2(create.ratio)} | | ≤ 1.05×, 0 × 429 |`,
  );
out.push('');
console.log(out.join('\n'));
