#!/usr/bin/env node
// What a team's shared ledger (PostgreSQL, issue 37) adds to one purchase and to `spend` over
// 10,000 entries, against the files of one machine, in the same run: `units create` of one unit
// against the sandbox, and `spend --json` reading a journal of 10,000 debits (the same entries in a
// journal file, and pushed once into the database). Wall time of the whole CLI process, median of
// alternating runs; the database is a temporary cluster on 127.0.0.1 (scripts/lib/postgres.mjs),
// so the network adds no more than loopback: a database elsewhere adds its round trips (a purchase
// makes about ten: the schema check, the policy, the hold's transaction, its liveness connection,
// the records and the debit).
// Prints a markdown section on stdout (bench/run.mjs puts it into bench/RESULTS.md).
//   node bench/ledger.mjs [--runs 7] [--entries 10000]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { postgresMissing, startPostgres } from '../scripts/lib/postgres.mjs';
import { BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, entries: { type: 'string', default: '10000' } } });
const runs = Number(values.runs);
const entries = Number(values.entries);

const missing = postgresMissing();
if (missing) {
  console.log(`## Shared ledger (PostgreSQL): what it adds (\`bench/ledger.mjs\`)\n\nNot measured: ${missing}.\n`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'proxyctl-bench-ledger-'));
const pg = await startPostgres();
const sb = await spawnSandbox(['--rate-limit', '1000000', '--engine-delay', '0', '--balance', '1000000000']);
const { baseUrl, apiKey } = sb.info;
const account = `${new URL(baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '_')}-${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One CLI run's wall time in ms (it must exit 0). */
function timed(cfg, args, ledgerUrl) {
  const env = { ...process.env, PROXYCTL_CONFIG_DIR: cfg, PROXYCTL_BASE_URL: baseUrl, PROXYCTL_API_KEY: apiKey, NO_COLOR: '1' };
  for (const k of ['PROXYCTL_PROFILE', 'PROXYCTL_DEBUG', 'NODE_OPTIONS', 'PROXYCTL_LEDGER_URL']) delete env[k];
  if (ledgerUrl) env.PROXYCTL_LEDGER_URL = ledgerUrl;
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`proxyctl ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

try {
  const pools = await (await fetch(`${baseUrl}/api/reseller/v1/pools`, { headers: { 'x-api-key': apiKey } })).json();
  const poolId = pools.data.find((p) => p.available).poolId;
  const buy = ['units', 'create', '--pool', poolId, '--period', '3h', '--json'];

  // One purchase: a config dir each, the shared one with an empty database (migrated by the unmeasured first run).
  const buyUrl = await pg.createDatabase('bench_buy');
  const files = join(dir, 'files');
  const team = join(dir, 'team');
  timed(files, buy);
  timed(team, buy, buyUrl);
  const buyFiles = [];
  const buyTeam = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) {
      buyTeam.push(timed(team, buy, buyUrl));
      buyFiles.push(timed(files, buy));
    } else {
      buyFiles.push(timed(files, buy));
      buyTeam.push(timed(team, buy, buyUrl));
    }
  }

  // spend over N debits: the same journal on disk, and pushed once into a database of its own.
  const spendUrl = await pg.createDatabase('bench_spend');
  const big = join(dir, 'big');
  mkdirSync(join(big, 'data', 'ledger'), { recursive: true, mode: 0o700 });
  const start = Date.now() - 20 * 86_400_000;
  const lines = [];
  for (let i = 0; i < entries; i++) {
    const ref = `PRX-${1_000_000 + i}`;
    lines.push(
      JSON.stringify({
        id: `create:${ref}`,
        at: new Date(start + i * 60_000).toISOString(),
        profile: 'default',
        source: 'cli',
        operation: 'create',
        ref,
        poolId,
        country: poolId.slice(0, 2),
        period: '3h',
        priceUsd: 1.25,
        idempotencyKey: `0d9f1e2a-3b4c-4d5e-8f60-${String(i).padStart(12, '0')}`,
        description: `customer=c${i % 50}`,
        customer: `c${i % 50}`,
      }),
    );
  }
  writeFileSync(join(big, 'data', 'ledger', `${account}.jsonl`), `${lines.join('\n')}\n`, { mode: 0o600 });
  timed(big, ['ledger', 'push'], spendUrl);
  const spend = ['spend', '--json'];
  timed(big, spend);
  timed(big, spend, spendUrl);
  const spendFiles = [];
  const spendTeam = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) {
      spendTeam.push(timed(big, spend, spendUrl));
      spendFiles.push(timed(big, spend));
    } else {
      spendFiles.push(timed(big, spend));
      spendTeam.push(timed(big, spend, spendUrl));
    }
  }

  const ms = (n) => `${Math.round(n)} ms`;
  const row = (what, f, t) => `| ${what} | ${ms(median(f))} | ${ms(median(t))} | +${ms(median(t) - median(f))} |`;
  const out = [];
  out.push('## Shared ledger (PostgreSQL): what it adds (`bench/ledger.mjs`)\n');
  out.push(
    `Wall time of the whole CLI process, median of ${runs} alternating runs; the database a local cluster on 127.0.0.1 (a database elsewhere adds its round trips).\n`,
  );
  out.push('| command | files (one machine) | shared ledger | added |');
  out.push('| --- | --- | --- | --- |');
  out.push(row('`units create` (one unit)', buyFiles, buyTeam));
  out.push(row(`\`spend --json\` over ${entries.toLocaleString('en')} debits`, spendFiles, spendTeam));
  console.log(`${out.join('\n')}\n`);
} finally {
  sb.child.kill('SIGTERM');
  await pg.close();
  rmSync(dir, { recursive: true, force: true });
}
