#!/usr/bin/env node
// The CLI's speed and memory (issue 24), on Node 24 from the npm registry (as `npm test` gets it,
// scripts/lib/node-binary.mjs) and this machine's Node beside it, in one run against the same
// sandboxes. Every figure is a ratio against a baseline run on the same Node in the same run:
//  - `proxyctl --version` / `--help` against `node -e 0`;
//  - `units list --json` (20 units) over TLS, as users meet the real API (https), against the
//    design's own HTTP client alone: a script doing the same GET with the undici parts the CLI
//    uses, bundled and started the way the bin starts the CLI (compile cache on);
//    beside it a node:https script doing the same. The sandbox serves plain http, so a loopback
//    relay (bench/tls-proxy.mjs) serves it over https with a certificate made here (openssl),
//    trusted through NODE_EXTRA_CA_CERTS by both sides;
//  - `units list --json` (20 units) over plain http against a node:http script doing the same GET;
//  - `units list --all -o conn` (10,000 units) against a node:http script paging the same list;
//    (both scripts CommonJS, see below; their ES module forms for information);
//  - peak memory (maxRSS: /usr/bin/time, else bench/maxrss.mjs) of each against its baseline;
//  - once, on the first Node: `units create --count 300` at 30 requests / 3 s against the rate
//    bound, counting 429s.
// Runs are pairwise (command and baseline back to back, order alternating) so machine noise
// hits both; the figure is the median of the per-pair ratios, with min and max. Each ratio is
// printed with its target and PASS/FAIL; a row without a target is for information.
// The bin turns on Node's compile cache (22.1+) in its default place, os.tmpdir(): every child
// runs with TMPDIR in this run's own temporary directory, so the cache starts empty, and one run
// of `units list --json` per Node fills it before anything is timed, as any run after a user's
// first one finds it.
// Prints a markdown section on stdout (bench/run.mjs puts it into bench/RESULTS.md). Exit 3 when a
// target is missed (the section is complete), 1 when the bench itself failed.
//   node bench/cli.mjs [--runs 15] [--node 24 --node /path/to/node ...] [--skip-create | --only-create | --only-list | --only-tls]
//                      [--bin other/bin/proxyctl.js] [--repeat 3]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { lazyCommanderChildProcess, lazyUndiciH2 } from '../scripts/lib/bundle-plugins.mjs';
import { nodeBinary } from '../scripts/lib/node-binary.mjs';
import { BIN as OWN_BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    // A version (installed from the registry as the tests do) or a path to a node binary; repeatable.
    node: { type: 'string', multiple: true, default: ['24', process.execPath] },
    'skip-create': { type: 'boolean', default: false },
    // Only the create row (a minute of wall time, no pairwise runs): for work on the pacing.
    'only-create': { type: 'boolean', default: false },
    // Only the two list time rows (`units list --json`, `--all -o conn`): for work on start-up.
    'only-list': { type: 'boolean', default: false },
    // Only the TLS rows (`units list --json` over https, time and memory): for work on start-up.
    'only-tls': { type: 'boolean', default: false },
    // Another build's bin/proxyctl.js (e.g. main's checkout), for before/after figures.
    bin: { type: 'string', default: OWN_BIN },
    // Measures Node 24 (only) this many times in all: the tables show the first run, a summary
    // every run of each row with a target (issue 33 asks for three).
    repeat: { type: 'string', default: '1' },
  },
});
const BIN = values.bin;
const runs = Number(values.runs);
const longRuns = Math.max(5, Math.ceil(runs / 3));
const dir = mkdtempSync(join(tmpdir(), 'proxyctl-bench-'));
const childTmp = join(dir, 'tmp');
mkdirSync(childTmp);
const MAXRSS = pathToFileURL(fileURLToPath(new URL('maxrss.mjs', import.meta.url))).href;
const baseEnv = { ...process.env, PROXYCTL_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1', TMPDIR: childTmp };
// NODE_COMPILE_CACHE would turn the cache on for the baselines too, and move it.
for (const k of ['PROXYCTL_PROFILE', 'PROXYCTL_DEBUG', 'NODE_OPTIONS', 'NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE'])
  delete baseEnv[k];

/** The Nodes to measure on: [{ path, version, major, compileCache }], in the order given. */
const nodes = [];
for (const spec of values.node) {
  const bin = /^\d+(\.\d+)*$/.test(spec) ? await nodeBinary(spec) : spec;
  const [path, version, hasCache] = execFileSync(
    bin,
    ['-p', 'process.execPath + "\\n" + process.version + "\\n" + (typeof require("node:module").enableCompileCache)'],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n');
  nodes.push({ path, version, major: Number(version.slice(1).split('.')[0]), compileCache: hasCache === 'function' });
}

/**
 * Targets by Node major (issues 24 and 33): Node 24 is what a new user installs. A one-request
 * command is judged as users meet it, over TLS against the design's own client (undici) alone
 * (issue 33); over plain http against node:http it is for information. On Node 20 (end of life, no
 * compile cache) only `units list --json` over http has one, stated and not chased. Any other row,
 * or Node, is for information.
 */
const TARGETS = {
  24: { version: 1.15, help: 1.15, tlsListJson: 1.2, memTlsListJson: 1.1, conn10k: 1.0 },
  20: { listJson: 1.6 },
};
const targetOf = (node, key) => TARGETS[node.major]?.[key];

/**
 * Peak memory: GNU time's maxRSS of the whole process life where /usr/bin/time exists; else
 * bench/maxrss.mjs, which reads it at 'exit' and so misses what V8's background threads still
 * allocate after (e.g. an optimising WebAssembly compile of llhttp).
 */
const GNU_TIME = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0;
const MEMORY_HOW = GNU_TIME
  ? '`/usr/bin/time -f %M` (maxRSS over the whole life of the process)'
  : '`bench/maxrss.mjs` (maxRSS at exit; no /usr/bin/time here)';

/** One run on `node`: wall ms, or with memory: true the child's peak RSS in MiB. */
function once(node, { args, env }, { memory = false } = {}) {
  const rssFile = join(dir, 'rss.txt');
  rmSync(rssFile, { force: true });
  const hook = memory && !GNU_TIME ? { NODE_OPTIONS: `--import=${MAXRSS}`, MAXRSS_FILE: rssFile } : {};
  const [cmd, argv] = memory && GNU_TIME ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, node.path, ...args]] : [node.path, args];
  const t = performance.now();
  const r = spawnSync(cmd, argv, { env: { ...baseEnv, ...env, ...hook }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${node.version} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return memory ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Pairwise on one Node: A and B back to back, order alternating; ratios A/B. */
function pairwise(node, a, b, { memory = false, n = runs, warmup = 2 } = {}) {
  const as = [];
  const bs = [];
  const ratios = [];
  for (let i = 0; i < n + warmup; i++) {
    let x;
    let y;
    if (i % 2) {
      y = once(node, b, { memory });
      x = once(node, a, { memory });
    } else {
      x = once(node, a, { memory });
      y = once(node, b, { memory });
    }
    if (i < warmup) continue;
    as.push(x);
    bs.push(y);
    ratios.push(x / y);
  }
  return {
    a: median(as),
    b: median(bs),
    ratio: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    // The least disturbed run of each side: on a loaded machine, the steadier comparison.
    fastest: Math.min(...as) / Math.min(...bs),
  };
}

function script(name, text) {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
}

// The node:http baselines: the floor for any Node tool making the same requests. CommonJS, as the
// bin is: on Node 24 a script that imports node:http as an ES module also loads Node's own copy of
// undici (building the module namespace reads http's lazy WebSocket, CloseEvent and MessageEvent
// exports), an HTTP client the CLI would then be measured against. The ES module scripts are
// measured too, for information.
const GET_ONE = `
const req = request(process.env.URL + '/api/reseller/v1/units?pageSize=50', { headers: { 'x-api-key': process.env.KEY, accept: 'application/json' } }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (body += c));
  res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).data, null, 2) + '\\n'));
});
req.end();
`;
const PAGE_ALL = `
const agent = new Agent({ keepAlive: true });
const get = (page) => new Promise((resolve, reject) => {
  request(process.env.URL + '/api/reseller/v1/units?pageSize=200&page=' + page, { agent, headers: { 'x-api-key': process.env.KEY } }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (body += c));
    res.on('end', () => resolve(JSON.parse(body)));
  }).on('error', reject).end();
});
(async () => {
  for (let page = 1; ; page++) {
    const r = await get(page);
    let out = '';
    for (const u of r.data) out += u.protocol + '://' + (u.credentials ? u.credentials.username + ':' + u.credentials.password + '@' : '') + u.ip + ':' + u.port + '\\n';
    process.stdout.write(out);
    if (!r.pagination.hasNext) break;
  }
  agent.destroy();
})();
`;
const getOne = script('get-units.cjs', `const { request } = require('node:http');${GET_ONE}`);
const getOneHttps = script('get-units-https.cjs', `const { request } = require('node:https');${GET_ONE}`);
const getOneEsm = script('get-units.mjs', `import { request } from 'node:http';${GET_ONE}`);
const pageAll = script('page-units.cjs', `const { Agent, request } = require('node:http');${PAGE_ALL}`);
const pageAllEsm = script('page-units.mjs', `import { Agent, request } from 'node:http';${PAGE_ALL}`);

/**
 * The design's own HTTP client alone: the same GET and print through the undici parts the CLI
 * bundles (src/net/undici-parts.ts), with the dispatcher and options the CLI's transport uses,
 * bundled by esbuild with the CLI's build plugins into one CommonJS file and started as the bin
 * starts the CLI (Node's compile cache on). What `units list --json` would cost if proxyctl added
 * nothing to undici. It sets no V8 flag: the CLI's flag for llhttp is proxyctl's own cost.
 */
async function undiciAlone() {
  const entry = script(
    'undici-get.mjs',
    `import { EnvHttpProxyAgent } from ${JSON.stringify(fileURLToPath(new URL('../src/net/undici-parts.ts', import.meta.url)))};
const env = process.env;
const agent = new EnvHttpProxyAgent({
  httpProxy: env.http_proxy ?? env.HTTP_PROXY,
  httpsProxy: env.https_proxy ?? env.HTTPS_PROXY,
  noProxy: env.no_proxy ?? env.NO_PROXY,
  connect: { timeout: 30000 },
  headersTimeout: 30000,
  bodyTimeout: 30000,
  keepAliveTimeout: 4000,
});
(async () => {
  const url = new URL(env.URL + '/api/reseller/v1/units?pageSize=50');
  const res = await agent.request({ origin: url.origin, path: url.pathname + url.search, method: 'GET', headers: { 'x-api-key': env.KEY, accept: 'application/json' } });
  const text = await res.body.text();
  process.stdout.write(JSON.stringify(JSON.parse(text).data, null, 2) + '\\n', () => process.exit(0));
})();
`,
  );
  await build({
    entryPoints: [entry],
    outfile: join(dir, 'undici-get.bundle.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minifyWhitespace: true,
    plugins: [lazyUndiciH2, lazyCommanderChildProcess],
    logLevel: 'warning',
  });
  return script(
    'undici-get.cjs',
    `require('node:module').enableCompileCache?.();
require(${JSON.stringify(join(dir, 'undici-get.bundle.cjs'))});
`,
  );
}

/** A self-signed certificate for 127.0.0.1 (openssl), and a relay serving `info`'s sandbox with it over https. */
async function tlsFront(info) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  if (!existsSync(cert))
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
      ].concat(['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']),
      { stdio: 'ignore' },
    );
  const child = spawn(process.execPath, [fileURLToPath(new URL('tls-proxy.mjs', import.meta.url)), new URL(info.baseUrl).port, cert, key], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { baseUrl } = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c) => {
      buf += c;
      const i = buf.indexOf('\n');
      if (i >= 0) resolve(JSON.parse(buf.slice(0, i)));
    });
    child.once('exit', (code) => reject(new Error(`the TLS relay exited early (code ${code})`)));
  });
  return { child, info: { ...info, baseUrl }, ca: cert };
}

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

/** A figure: [name, baseline name, pairwise result, target key or undefined, unit]. */
function measureOn(node, sb20, sb10k, tls, undiciGet) {
  const floor = { args: ['-e', '0'], env: {} };
  const cli = (info, ...args) => ({ args: [BIN, ...args], env: { PROXYCTL_BASE_URL: info.baseUrl, PROXYCTL_API_KEY: info.apiKey } });
  const raw = (info, f) => ({ args: [f], env: { URL: info.baseUrl, KEY: info.apiKey } });
  const listJson = cli(sb20.info, 'units', 'list', '--json');
  const conn10k = cli(sb10k.info, 'units', 'list', '--all', '-o', 'conn');
  const rows = [];
  const time = (name, base, r, key) => rows.push({ name, base, r, target: targetOf(node, key), unit: 'ms' });
  const mem = (name, base, r, key) => rows.push({ name: `peak memory, ${name}`, base, r, target: targetOf(node, key), unit: 'MiB' });

  // Over TLS, the certificate trusted through NODE_EXTRA_CA_CERTS on both sides.
  const overTls = ({ args, env }) => ({ args, env: { ...env, NODE_EXTRA_CA_CERTS: tls.ca } });
  const tlsListJson = overTls(cli(tls.info, 'units', 'list', '--json'));
  const tlsUndici = overTls(raw(tls.info, undiciGet));
  const tlsHttps = overTls(raw(tls.info, getOneHttps));

  // Fills the compile cache (an empty directory of this run) as a user's first run does.
  once(node, listJson);
  once(node, tlsUndici);
  const memOpts = { memory: true, n: longRuns, warmup: 0 };
  if (!values['only-list']) {
    time(
      '`units list --json` (20 units) over TLS',
      'undici alone, bundled (GET + print)',
      pairwise(node, tlsListJson, tlsUndici),
      'tlsListJson',
    );
    time('`units list --json` (20 units) over TLS', 'node:https GET + print', pairwise(node, tlsListJson, tlsHttps));
    time('undici alone, bundled, over TLS', 'node:https GET + print', pairwise(node, tlsUndici, tlsHttps));
    mem(
      '`units list --json` (20 units) over TLS',
      'undici alone, bundled',
      pairwise(node, tlsListJson, tlsUndici, memOpts),
      'memTlsListJson',
    );
    mem('`units list --json` (20 units) over TLS', 'node:https GET + print', pairwise(node, tlsListJson, tlsHttps, memOpts));
  }
  if (values['only-tls']) return rows;
  if (!values['only-list']) {
    time('`proxyctl --version`', '`node -e 0`', pairwise(node, { args: [BIN, '--version'], env: {} }, floor), 'version');
    time('`proxyctl --help`', '`node -e 0`', pairwise(node, { args: [BIN, '--help'], env: {} }, floor), 'help');
  }
  time('`units list --json` (20 units)', 'node:http GET + print', pairwise(node, listJson, raw(sb20.info, getOne)), 'listJson');
  time(
    '`units list --all -o conn` (10,000 units)',
    'node:http paging script',
    pairwise(node, conn10k, raw(sb10k.info, pageAll), { n: longRuns, warmup: 1 }),
    'conn10k',
  );
  if (values['only-list']) return rows;
  if (node.compileCache)
    // Every run compiling the bundle, as the first run of a build on this Node does.
    time(
      '`units list --json` (20 units), compile cache off',
      'node:http GET + print',
      pairwise(node, { ...listJson, env: { ...listJson.env, NODE_DISABLE_COMPILE_CACHE: '1' } }, raw(sb20.info, getOne)),
    );
  time('`units list --json` (20 units)', 'the same script as an ES module', pairwise(node, listJson, raw(sb20.info, getOneEsm)));
  time(
    '`units list --all -o conn` (10,000 units)',
    'the paging script as an ES module',
    pairwise(node, conn10k, raw(sb10k.info, pageAllEsm), { n: longRuns, warmup: 1 }),
  );
  mem('`units list --json` (20 units)', 'node:http GET + print', pairwise(node, listJson, raw(sb20.info, getOne), memOpts));
  mem('`units list --json` (20 units)', 'the same script as an ES module', pairwise(node, listJson, raw(sb20.info, getOneEsm), memOpts));
  mem('`units list --all -o conn` (10,000 units)', 'node:http paging script', pairwise(node, conn10k, raw(sb10k.info, pageAll), memOpts));
  mem('`proxyctl --version`', '`node -e 0`', pairwise(node, { args: [BIN, '--version'], env: {} }, floor, memOpts));
  return rows;
}

const SANDBOX = ['--rate-limit', '1000000000', '--engine-delay', '0', '--balance', '1000000000'];
const load = [loadavg()[0]];
const results = [];
/** The later runs of `--repeat`, Node 24 only. */
const again = [];
const repeat = Math.max(1, Number(values.repeat));
if (!values['only-create']) {
  const sb20 = await spawnSandbox(SANDBOX);
  const sb10k = await spawnSandbox(SANDBOX);
  let tls;
  try {
    await seed(sb20.info, 20);
    if (!values['only-tls']) await seed(sb10k.info, 10_000);
    tls = await tlsFront(sb20.info);
    const undiciGet = await undiciAlone();
    for (const node of nodes) results.push({ node, rows: measureOn(node, sb20, sb10k, tls, undiciGet) });
    for (let rep = 1; rep < repeat; rep++)
      for (const node of nodes) if (node.major === 24) again.push({ node, rows: measureOn(node, sb20, sb10k, tls, undiciGet) });
  } finally {
    sb20.child.kill('SIGTERM');
    sb10k.child.kill('SIGTERM');
    tls?.child.kill('SIGTERM');
  }
}

let create;
if (!values['skip-create'] && !values['only-list'] && !values['only-tls']) create = await createAtRateLimit(nodes[0]);
load.push(loadavg()[0]);
rmSync(dir, { recursive: true, force: true });

/**
 * `units create --count 300` against a sandbox allowing 30 requests per 3 s, through a counting
 * node:http proxy: wall time against the rate bound (requests ÷ 10 per second), and 429s.
 */
async function createAtRateLimit(node) {
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
    const code = await new Promise((resolve) => spawn(node.path, args, { env, stdio: 'ignore' }).on('exit', resolve));
    const s = (performance.now() - t) / 1000;
    if (code !== 0) throw new Error(`units create --count 300 exited ${code}`);
    const bound = (counts.requests * 3) / 30;
    return { node, s, requests: counts.requests, r429: counts[429], bound, ratio: s / bound };
  } finally {
    proxy.close();
    sb.child.kill('SIGTERM');
  }
}

const f1 = (n) => n.toFixed(1);
const f2 = (n) => `${n.toFixed(2)}×`;
// Judged on the ratio as printed (two decimals).
const verdict = (r, target) => (target === undefined ? '—' : Number(r.ratio.toFixed(2)) <= target ? 'PASS' : 'FAIL');
let missed = 0;
const out = [];
out.push(`## CLI against node:http (\`bench/cli.mjs\`)\n`);
out.push(
  `Pairwise runs (command and baseline back to back on the same Node, order alternating): ${runs} pairs for the short commands after 2 unmeasured ones, ${longRuns} for the 10,000-unit list after 1, ${longRuns} for memory; ratios are medians of the per-pair ratios (judged against the target), with min–max, and beside them the fastest run of the command over the fastest of its baseline. Peak memory: ${MEMORY_HOW}, the same for both sides. Compile cache: the bin turns on Node's (22.1+) in os.tmpdir(); the bench gives every child an empty temporary directory of its own and fills the cache with one run of \`units list --json\` on each Node before timing. A row without a target is for information. Load average (1 min) at the start and end: ${load.map((l) => l.toFixed(1)).join(' and ')}.\n`,
);
for (const { node, rows } of results) {
  out.push(`### Node ${node.version}${node.compileCache ? ' (compile cache warm)' : ' (no compile cache in this Node)'}\n`);
  out.push(
    '| figure | proxyctl (median) | baseline | baseline (median) | ratio (median) | min–max | fastest / fastest | target | result |',
  );
  out.push('| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | --- |');
  for (const { name, base, r, target, unit } of rows) {
    const v = verdict(r, target);
    if (v === 'FAIL') missed++;
    out.push(
      `| ${name} | ${f1(r.a)} ${unit} | ${base} | ${f1(r.b)} ${unit} | ${f2(r.ratio)} | ${r.min.toFixed(2)}–${r.max.toFixed(2)} | ${f2(r.fastest)} | ${target === undefined ? '—' : `≤ ${target.toFixed(2)}×`} | ${v} |`,
    );
  }
  out.push('');
}
if (create) {
  const v = create.ratio <= 1.05 && create.r429 === 0 ? 'PASS' : 'FAIL';
  if (v === 'FAIL') missed++;
  out.push(`### Pacing, on Node ${create.node.version}\n`);
  out.push('| figure | proxyctl | baseline | baseline | ratio | target | result |');
  out.push('| --- | ---: | --- | ---: | ---: | --- | --- |');
  out.push(
    `| \`units create --count 300\` at 30 requests / 3 s | ${f1(create.s)} s, ${create.requests} requests, ${create.r429} × 429 | rate bound (requests ÷ 10/s) | ${f1(create.bound)} s | ${f2(create.ratio)} | ≤ 1.05×, 0 × 429 | ${v} |`,
  );
  out.push('');
}
if (again.length > 0) {
  // Every row with a target, run by run: it holds when every run meets it.
  for (const first of results.filter((r) => again.some((a) => a.node === r.node))) {
    const runsOf = [first, ...again.filter((a) => a.node === first.node)];
    out.push(`### Node ${first.node.version}: every row with a target, in each of ${runsOf.length} runs\n`);
    out.push(`| figure | baseline | ${runsOf.map((_, i) => `run ${i + 1}`).join(' | ')} | target | result |`);
    out.push(`| --- | --- | ${runsOf.map(() => '---:').join(' | ')} | --- | --- |`);
    first.rows.forEach((row, i) => {
      if (row.target === undefined) return;
      const ratios = runsOf.map((r) => r.rows[i].r);
      const held = ratios.filter((r) => verdict(r, row.target) === 'PASS').length;
      // The first run's verdict is counted in its table above; the others here.
      missed += ratios.slice(1).filter((r) => verdict(r, row.target) === 'FAIL').length;
      out.push(
        `| ${row.name} | ${row.base} | ${ratios.map((r) => f2(r.ratio)).join(' | ')} | ≤ ${row.target.toFixed(2)}× | ${held === ratios.length ? 'PASS' : `FAIL (${held} of ${ratios.length})`} |`,
      );
    });
    out.push('');
  }
}
out.push(missed === 0 ? 'Every target met.\n' : `${missed} target${missed === 1 ? '' : 's'} missed (FAIL above).\n`);
console.log(out.join('\n'));
if (missed > 0) process.exitCode = 3;
