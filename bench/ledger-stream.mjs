#!/usr/bin/env node
// `spend` and `status` over a growing ledger (issue 33): peak memory and time at 10,000, 100,000
// and 1,000,000 journal entries. They stream the journal (JournalStore.pages), so what they hold
// should not grow with it. The journal is made here as the CLI and `webhook listen --ledger` write
// it: one debit line per purchase or extension, a webhook line for a third of them a few lines
// later (merged into one debit by readers), a tag line for 2 % of the units, a few lines cut by a
// kill. Against the sandbox (status makes its requests there), on the given Node, with the files
// store (the shared store is bench/ledger.mjs's).
//
// Each command is measured twice: as users run it, and with `--max-semi-space-size=1` (a bench-only
// V8 flag capping the young generation at 1 MiB a semi-space). V8 grows its young generation during
// a long, allocation-heavy run (up to 16 MiB a semi-space on 64-bit, three of them), which raises the
// peak RSS without anything more being kept; with it capped, what is left of the growth is what the
// run holds. Prints a markdown section on stdout (bench/run.mjs puts it into bench/RESULTS.md). Exit
// 3 when, for a command, peak memory at the largest size is more than 1.10 × that at the middle one.
//   node bench/ledger-stream.mjs [--node 24 | --node /path/to/node] [--runs 3] [--sizes 10000,100000,1000000]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { nodeBinary } from '../scripts/lib/node-binary.mjs';
import { BIN, spawnSandbox } from '../scripts/lib/spawn-sandbox.mjs';

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: '24' },
    runs: { type: 'string', default: '3' },
    sizes: { type: 'string', default: '10000,100000,1000000' },
  },
});
const node = /^\d+(\.\d+)*$/.test(values.node) ? await nodeBinary(values.node) : values.node;
const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
const runs = Number(values.runs);
const SIZES = values.sizes.split(',').map(Number);
const LIMIT = 1.1;
const n$ = (n) => n.toLocaleString('en');
const TITLE = `## Ledger: \`spend\` and \`status\` over ${SIZES.map(n$).join(', ')} entries (\`bench/ledger-stream.mjs\`)\n`;
const GNU_TIME = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0;
if (!GNU_TIME) {
  console.log(`${TITLE}\nSKIPPED: no /usr/bin/time here.\n`);
  process.exit(0);
}

/** Writes a journal of `n` entries (lines that readers count: debits, webhook copies, tags), as written over months. */
function writeJournal(path, n) {
  const fd = openSync(path, 'w', 0o600);
  const customers = Array.from({ length: 20 }, (_, i) => `cust${i}`);
  const pools = ['US-12', 'US-9', 'DE-3', 'GB-1', 'BR-11', 'JP-2'];
  const webhook = [];
  const t0 = Date.now() - 200 * 86_400_000;
  let written = 0;
  let chunk = [];
  const put = (line) => {
    if (written >= n) return;
    chunk.push(line);
    written++;
    if (chunk.length >= 10_000) {
      writeSync(fd, `${chunk.join('\n')}\n`);
      chunk = [];
    }
  };
  for (let i = 0, seq = 0; written < n; i++) {
    const ref = `PRX-${(100000 + (i % Math.ceil(n * 0.8))).toString(36).toUpperCase()}`;
    const at = new Date(t0 + Math.floor((i / n) * 200 * 86_400_000)).toISOString();
    const extend = i >= Math.ceil(n * 0.8);
    const poolId = pools[i % pools.length];
    const entry = {
      id: extend ? `extend:${ref}:${new Date(Date.parse(at) + 7 * 86_400_000).toISOString()}` : `create:${ref}`,
      at,
      profile: 'default',
      source: 'cli',
      operation: extend ? 'extend' : 'create',
      ref,
      poolId,
      country: poolId.slice(0, 2),
      period: '7d',
      priceUsd: 21.25,
      balanceUsd: 100000 - i,
      idempotencyKey: `k-${createHash('sha256').update(String(i)).digest('hex').slice(0, 24)}`,
      description: i % 3 === 0 ? undefined : `customer=${customers[i % customers.length]} order ${i}`,
      customer: i % 3 === 0 ? undefined : customers[i % customers.length],
      hold: `h-${Math.floor(i / 10)}`,
    };
    put(JSON.stringify(entry));
    // A third seen again by `webhook listen --ledger`, a few lines later.
    if (i % 3 === 1)
      webhook.push({
        due: written + 5,
        line: JSON.stringify({ id: entry.id, at, source: 'webhook', operation: entry.operation, ref, priceUsd: 21.25 }),
      });
    while (webhook.length > 0 && webhook[0].due <= written) put(webhook.shift().line);
    if (i % 50 === 0)
      put(
        JSON.stringify({
          kind: 'tag',
          ref,
          at: new Date(Date.parse(at) + 3_600_000).toISOString(),
          customer: customers[seq++ % 20],
          from: null,
        }),
      );
    if (i % 5000 === 4999) put(JSON.stringify(entry).slice(0, 40));
  }
  if (chunk.length > 0) writeSync(fd, `${chunk.join('\n')}\n`);
  closeSync(fd);
}

/** One run: peak RSS (MiB) and wall ms. */
function once(args, env, flags) {
  const rss = join(dir, 'rss.txt');
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', rss, node, ...flags, BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, mib: Number(readFileSync(rss, 'utf8').trim().split('\n').pop()) / 1024 };
}
/** The JS heap left after each mark-compact of one run (`--trace-gc`), in MiB: what the run held then. */
function heldAfterMarkCompact(args, env) {
  const r = spawnSync(node, ['--trace-gc', BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return [...r.stdout.matchAll(/Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \(/g)].map((m) => Number(m[1]));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'proxyctl-bench-ledger-stream-'));
const sb = await spawnSandbox(['--rate-limit', '1000000000', '--engine-delay', '0']);
const COMMANDS = [
  ['`spend --json` (every debit, in order)', ['spend', '--json']],
  ['`spend --by customer --json`', ['spend', '--by', 'customer', '--json']],
  ['`status --json`', ['status', '--json']],
];
const VARIANTS = [
  ['', []],
  [', `--max-semi-space-size=1`', ['--max-semi-space-size=1']],
];
const rows = [];
const held = new Map();
const started = performance.now();
try {
  const account = `${new URL(sb.info.baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '_')}-${createHash('sha256').update(sb.info.apiKey).digest('hex').slice(0, 16)}`;
  for (const n of SIZES) {
    const cfg = join(dir, `cfg-${n}`);
    mkdirSync(join(cfg, 'data', 'ledger'), { recursive: true });
    const journal = join(cfg, 'data', 'ledger', `${account}.jsonl`);
    writeJournal(journal, n);
    const env = {
      ...process.env,
      PROXYCTL_CONFIG_DIR: cfg,
      PROXYCTL_BASE_URL: sb.info.baseUrl,
      PROXYCTL_API_KEY: sb.info.apiKey,
      NO_COLOR: '1',
      TMPDIR: dir,
    };
    for (const k of ['PROXYCTL_PROFILE', 'NODE_OPTIONS', 'PROXYCTL_LEDGER_URL']) delete env[k];
    // The largest journal is read once per run and variant (its runs take seconds each; the
    // smaller ones get one unmeasured run first, for the compile cache).
    const times = n >= 1_000_000 ? 1 : runs;
    for (const [name, args] of COMMANDS)
      for (const [flagName, flags] of VARIANTS) {
        if (n < 1_000_000) once(args, env, flags);
        const got = Array.from({ length: times }, () => once(args, env, flags));
        rows.push({ name: name + flagName, n, mib: median(got.map((g) => g.mib)), ms: median(got.map((g) => g.ms)), times });
      }
    // `spend --by customer` prints a few lines, so its --trace-gc lines can be read from stdout.
    if (n === SIZES[1] || n === SIZES.at(-1)) held.set(n, heldAfterMarkCompact(['spend', '--by', 'customer', '--json'], env));
    rmSync(journal, { force: true });
  }
} finally {
  sb.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}

let missed = 0;
const [small, mid, large] = SIZES.length >= 3 ? SIZES : [SIZES[0], SIZES[0], SIZES.at(-1)];
const out = [TITLE];
out.push(
  `Node ${version}, the files store; ${runs} runs each after one unmeasured (${rows.some((r) => r.times === 1) ? `one run each at ${n$(large)}, ` : ''}medians); peak memory by \`/usr/bin/time -f %M\` (maxRSS), wall time beside it. The journal is written here as the CLI and \`webhook listen --ledger\` write it (a webhook line for a third of the debits, tag lines, a few cut lines; ~260 bytes a line). Target: peak memory at ${n$(large)} entries within ${LIMIT.toFixed(2)}× that at ${n$(mid)} (what a run holds does not grow with the ledger); ${n$(small)} beside them. The second row of each command runs Node with \`--max-semi-space-size=1\` (bench only): it shows how much of the rest is V8 sizing its young generation to a long run rather than data kept. Whole run: ${Math.round((performance.now() - started) / 1000)} s.\n`,
);
out.push(
  `| command | ${n$(small)} entries | ${n$(mid)} entries | ${n$(large)} entries | memory ${n$(large)} / ${n$(mid)} | target | result |`,
);
out.push('| --- | ---: | ---: | ---: | ---: | --- | --- |');
for (const [name] of COMMANDS)
  for (const [flagName] of VARIANTS) {
    const [a, b, c] = [small, mid, large].map((n) => rows.find((r) => r.name === name + flagName && r.n === n));
    const ratio = c.mib / b.mib;
    const judged = flagName === '';
    const pass = Number(ratio.toFixed(2)) <= LIMIT;
    if (judged && !pass) missed++;
    const cell = (r) => `${r.mib.toFixed(1)} MiB, ${Math.round(r.ms)} ms`;
    out.push(
      `| ${name}${flagName} | ${cell(a)} | ${cell(b)} | ${cell(c)} | ${ratio.toFixed(2)}× | ${judged ? `≤ ${LIMIT.toFixed(2)}×` : '—'} | ${judged ? (pass ? 'PASS' : 'FAIL') : '—'} |`,
    );
  }
const ratioOf = (name) => {
  const [b, c] = [mid, large].map((n) => rows.find((r) => r.name === name && r.n === n));
  return c.mib / b.mib;
};
const span = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`;
const plain = COMMANDS.map(([name]) => ratioOf(name));
const capped = COMMANDS.map(([name]) => ratioOf(name + VARIANTS[1][0]));
out.push('');
const heldText = (n) => {
  const mc = held.get(n) ?? [];
  return mc.length === 0
    ? 'no mark-compact'
    : `${Math.min(...mc).toFixed(1)}–${Math.max(...mc).toFixed(1)} MiB after ${mc.length} mark-compact(s)`;
};
out.push(
  `What the growth is (${n$(mid)} → ${n$(large)}: ${span(plain)} as run, ${span(capped)} with the young generation capped): not the ledger held. A run holds the debits still waiting for a later line of theirs (a webhook's, a replay's), the tag lines, one line per group, and the first pass's id table (a 64-bit hash and a count, 12 bytes a slot, off the JS heap). \`--trace-gc\` of \`spend --by customer\` in this run: the JS heap ${heldText(mid)} at ${n$(mid)} entries, ${heldText(large)} at ${n$(large)}. Most of the rest is V8 sizing its young generation to the run: it doubles the semi-spaces each time as many bytes have survived scavenges as they hold, so a run long enough reaches the largest (128 MiB of new space on Node 24, 64-bit) whatever it keeps; capping it (the second rows) removes most of that. What remains under the cap is old-space garbage between mark-compacts (short strings that JSON.parse internalises go straight to old space) and malloc'd memory not given back. A V8 flag cannot be set from the bin without losing Node's code cache (bench/RESULTS.md, round 8), so the judged row is the plain run.`,
);
out.push('');
console.log(out.join('\n'));
if (missed > 0) process.exitCode = 3;
