#!/usr/bin/env node
// Local work per purchase against the size of the purchase records (issue 32, point 14): the same
// `units create --count N` against the sandbox with an empty record and with the records of
// 100,000 earlier units (1,000 batches of 100, all within the last day, so all live), written
// straight into the data dir as the CLI writes them. Local work is the CLI process's own CPU time
// (user + system, /usr/bin/time), which the sandbox's work and the machine's load do not inflate
// the way they do wall time; peak memory is its maxRSS. Per purchase is the difference between
// `--count 100` and `--count 1` over the 99 purchases between them, so the one read of the file a
// process makes is apart from what each purchase costs. Runs alternate between the two records,
// each on a fresh copy of its file.
// Prints a markdown section on stdout (bench/run.mjs puts it into bench/RESULTS.md).
//   node bench/records.mjs [--runs 5] [--units 100000] [--bin other/bin/proxyctl.js] [--legacy]
// --legacy writes the records as an earlier version kept them (purchases.json, one object), for
// before/after figures with --bin pointing at that version's build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN as OWN_BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    units: { type: 'string', default: '100000' },
    bin: { type: 'string', default: OWN_BIN },
    legacy: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const units = Number(values.units);
const BATCH = 100;
if (!existsSync('/usr/bin/time')) throw new Error('bench/records.mjs needs GNU time (/usr/bin/time) for the CPU time of the CLI process');

const dir = mkdtempSync(join(tmpdir(), 'proxyctl-bench-records-'));
const childTmp = join(dir, 'tmp');
mkdirSync(childTmp);
const load = [loadavg()[0]];
const sb = await spawnSandbox(['--rate-limit', '1000000', '--engine-delay', '0', '--balance', '1000000000']);
const { baseUrl, apiKey } = sb.info;

try {
  const pools = await (await fetch(`${baseUrl}/api/reseller/v1/pools`, { headers: { 'x-api-key': apiKey } })).json();
  const poolId = pools.data.find((p) => p.available).poolId;

  // The records of `units` earlier units, as `units create --count 100 --idempotency-key K` leaves them.
  const file = values.legacy ? 'purchases.json' : 'purchases.jsonl';
  const full = join(dir, `full-${file}`);
  {
    const now = Date.now();
    const lines = [];
    const entries = {};
    const put = (k, v, at) => {
      if (values.legacy) entries[k] = v;
      else lines.push(JSON.stringify({ k, v, at }));
    };
    for (let b = 0; b < units / BATCH; b++) {
      const base = `0d9f1e2a-3b4c-4d5e-8f60-${String(b).padStart(12, '0')}`;
      const at = now - 20 * 3600 * 1000 + b * 1000;
      put(
        `idempotency-request:${baseUrl}:${base}`,
        { poolId, period: '3h', protocol: 'socks5', count: BATCH, request: 'f'.repeat(64), at },
        at,
      );
      for (let i = 0; i < BATCH; i++)
        put(`idempotency-bought:${baseUrl}:${base}:${i}`, { proxyRef: `PRX-${9_000_000 + b * BATCH + i}`, at }, at);
    }
    writeFileSync(full, values.legacy ? `${JSON.stringify({ entries }, null, '\t')}\n` : `${lines.join('\n')}\n`, { mode: 0o600 });
  }
  const fileMiB = readFileSync(full).length / 2 ** 20;

  const records = [
    { name: 'empty', prepare: (data) => rmSync(data, { recursive: true, force: true }) },
    {
      name: `${units.toLocaleString('en')} earlier units`,
      prepare: (data) => {
        rmSync(data, { recursive: true, force: true });
        mkdirSync(data, { recursive: true, mode: 0o700 });
        copyFileSync(full, join(data, file));
      },
    },
  ];

  /** One `units create --count n` on a fresh copy of the record: CPU s (user + sys), wall s, maxRSS MiB. */
  function once(record, count) {
    const cfg = join(dir, 'cfg');
    record.prepare(join(cfg, 'data'));
    const out = join(dir, 'time.txt');
    const args = [values.bin, 'units', 'create', '--pool', poolId, '--period', '3h', '--count', String(count), '--yes', '--json'];
    const env = {
      ...process.env,
      PROXYCTL_CONFIG_DIR: cfg,
      PROXYCTL_BASE_URL: baseUrl,
      PROXYCTL_API_KEY: apiKey,
      NO_COLOR: '1',
      TMPDIR: childTmp,
    };
    for (const k of ['PROXYCTL_PROFILE', 'PROXYCTL_DEBUG', 'NODE_OPTIONS']) delete env[k];
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e %M', '-o', out, process.execPath, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`units create --count ${count} (${record.name}) exited ${r.status}: ${r.stderr}`);
    const [user, sys, wall, rss] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    return { cpu: user + sys, wall, rss: rss / 1024 };
  }

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  // One unmeasured round (the compile cache, the sandbox's first requests), then alternating.
  for (const r of records) once(r, 1);
  const got = new Map(records.map((r) => [r, { one: [], hundred: [] }]));
  for (let i = 0; i < runs; i++) {
    const order = i % 2 ? [...records].reverse() : records;
    for (const r of order) got.get(r).one.push(once(r, 1));
    for (const r of order) got.get(r).hundred.push(once(r, BATCH));
  }
  load.push(loadavg()[0]);

  const rows = records.map((r) => {
    const { one, hundred } = got.get(r);
    const cpu1 = median(one.map((x) => x.cpu));
    const cpu100 = median(hundred.map((x) => x.cpu));
    return {
      name: r.name,
      cpu1,
      cpu100,
      per: ((cpu100 - cpu1) / (BATCH - 1)) * 1000,
      wall100: median(hundred.map((x) => x.wall)),
      rss100: median(hundred.map((x) => x.rss)),
    };
  });
  const [empty, big] = rows;
  const f2 = (n) => n.toFixed(2);
  const out = [];
  out.push('## Purchase records: local work per purchase (`bench/records.mjs`)\n');
  out.push(
    `\`units create --count 1\` and \`--count ${BATCH}\` against the sandbox, with an empty purchase record and with the records of ${units.toLocaleString('en')} earlier units (${values.legacy ? '`purchases.json`' : '`purchases.jsonl`'}, ${fileMiB.toFixed(1)} MiB, all within the key window), a fresh copy for every run; ${values.bin === OWN_BIN ? 'this build' : `\`${values.bin}\``}, Node ${process.version}. CPU is the CLI process's user + system time; per purchase is (CPU at ${BATCH} − CPU at 1) ÷ ${BATCH - 1}. Medians of ${runs} alternating runs each. Load average (1 min) at the start and end: ${load.map((l) => l.toFixed(1)).join(' and ')}.\n`,
  );
  out.push(
    `| record | CPU, \`--count 1\` | CPU, \`--count ${BATCH}\` | CPU per purchase | wall, \`--count ${BATCH}\` | peak memory, \`--count ${BATCH}\` |`,
  );
  out.push('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows)
    out.push(`| ${r.name} | ${f2(r.cpu1)} s | ${f2(r.cpu100)} s | ${f2(r.per)} ms | ${f2(r.wall100)} s | ${r.rss100.toFixed(1)} MiB |`);
  out.push(
    `| ratio | ${f2(big.cpu1 / empty.cpu1)}× | ${f2(big.cpu100 / empty.cpu100)}× | ${f2(big.per / empty.per)}× | ${f2(big.wall100 / empty.wall100)}× | ${f2(big.rss100 / empty.rss100)}× |`,
  );
  out.push('');
  console.log(out.join('\n'));
} finally {
  sb.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
