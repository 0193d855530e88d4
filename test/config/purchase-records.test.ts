// The purchase records (which unit each item of a batch bought) are lines appended to
// purchases.jsonl in the data dir. What a resumed batch relies on must hold whatever the file went
// through: a line cut by kill -9, a purchases.json left by an earlier version, a compaction, and
// parallel processes appending while one compacts. Each case re-runs the batch with its key and
// the balance at 0: it goes through only if the records say every item was bought (a run without
// them quotes the whole batch and is refused), and nothing is charged.
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cents, fileMode, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const DAY = 24 * 3600 * 1000;
const key = (n: number) => `5e1d2c3b-4a59-4f68-8d7e-${String(n).padStart(12, '0')}`;
const jsonl = (k: Kit) => join(k.home.configDir, 'data', 'purchases.jsonl');
const legacyJson = (k: Kit) => join(k.home.configDir, 'data', 'purchases.json');
const boughtKey = (k: Kit, base: string, i: number) => `idempotency-bought:${k.sb.baseUrl}:${base}:${i}`;

/** The records as a reader takes them: the last line of a key wins, lines that are not records are skipped. */
function records(k: Kit): Map<string, { v: { proxyRef?: string; generation?: number }; at: number }> {
  const out = new Map();
  for (const line of readFileSync(jsonl(k), 'utf8').split('\n')) {
    try {
      const r = JSON.parse(line) as { k: string; v: unknown; at: number };
      out.set(r.k, { v: r.v, at: r.at });
    } catch {
      // not a whole record
    }
  }
  return out;
}

const lineCount = (k: Kit) => readFileSync(jsonl(k), 'utf8').split('\n').filter(Boolean).length;
/** `--json` prints one unit as an object, several as an array. */
const refsOf = (stdout: unknown) =>
  [JSON.parse(String(stdout)) as { proxyRef: string } | { proxyRef: string }[]].flat().map((u) => u.proxyRef);

async function setup() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const [pool] = await pickPools(kit);
  const price = pool!.prices['3h']!;
  const create = (base: string, count: number) =>
    kit!.run(['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', String(count), '--idempotency-key', base, '--json']);
  const buy = async (base: string, count: number) => {
    const r = await create(base, count);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    return refsOf(r.stdout);
  };
  /** The batch again with the balance at 0: every item replayed from the records, nothing charged. */
  const resumesFree = async (base: string, refs: string[]) => {
    const before = await kit!.state();
    await kit!.control('/balance', { balanceUsd: 0 });
    const r = await create(base, refs.length);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toContain(`${refs.length} of ${refs.length} were bought earlier with this idempotency key`);
    expect(String(r.stderr)).not.toContain('charged');
    expect(refsOf(r.stdout)).toEqual(refs);
    const after = await kit!.state();
    expect(after.balanceUsd).toBe(0);
    expect(after.units.map((u) => u.proxyRef).sort()).toEqual(before.units.map((u) => u.proxyRef).sort());
    await kit!.control('/balance', { balanceUsd: before.balanceUsd });
  };
  return { kit, price, create, buy, resumesFree };
}

describe('purchase records, appended', () => {
  it('one line a record, mode 0600 in a 0700 dir, and no purchases.json written', async () => {
    const { kit, buy } = await setup();
    const refs = await buy(key(1), 3);
    const r = records(kit);
    expect([0, 1, 2].map((i) => r.get(boughtKey(kit, key(1), i))?.v.proxyRef)).toEqual(refs);
    // 3 units and the key's binding to its request, each written once.
    expect(lineCount(kit)).toBe(4);
    expect(fileMode(jsonl(kit))).toBe(0o600);
    expect(fileMode(join(kit.home.configDir, 'data'))).toBe(0o700);
    expect(existsSync(legacyJson(kit))).toBe(false);
  }, 60_000);

  it('a line cut short by kill -9 is skipped, and the records before and after it are kept', async () => {
    const { kit, create, buy, resumesFree } = await setup();
    const first = await buy(key(1), 2);
    // A writer killed in the middle of its line: half a record, no newline. The next line is
    // appended right behind it.
    const whole = JSON.stringify({ k: boughtKey(kit, key(9), 0), v: { proxyRef: 'PRX-999999', at: Date.now() }, at: Date.now() });
    appendFileSync(jsonl(kit), whole.slice(0, 40));
    const second = await buy(key(2), 2);
    expect(readFileSync(jsonl(kit), 'utf8')).toContain(`${whole.slice(0, 40)}{"k":`);
    expect(records(kit).has(boughtKey(kit, key(9), 0))).toBe(false);
    // The line glued to the cut one is key 2's binding to its request (its only line until a
    // re-run writes it again): still read, so the key is refused for another purchase before
    // anything is sent.
    const balance = (await kit.state()).balanceUsd;
    const other = await create(key(2), 3);
    expect(other.exitCode).toBe(8);
    expect(String(other.stderr)).toContain(`idempotency key ${key(2)} was used for 2 × 3h socks5 units`);
    expect((await kit.state()).balanceUsd).toBe(balance);
    expect((await kit.state()).units).toHaveLength(4);
    await resumesFree(key(1), first);
    await resumesFree(key(2), second);
  }, 60_000);

  it('a batch recorded in purchases.json by an earlier version resumes without buying twice; its records move to purchases.jsonl', async () => {
    const { kit, buy, resumesFree } = await setup();
    const refs = await buy(key(1), 3);
    // The same records as the earlier version kept them: one JSON object, rewritten whole.
    const entries = Object.fromEntries([...records(kit)].map(([k, r]) => [k, r.v]));
    writeFileSync(legacyJson(kit), `${JSON.stringify({ entries }, null, '\t')}\n`, { mode: 0o600 });
    unlinkSync(jsonl(kit));
    await resumesFree(key(1), refs);
    // Folded into the new file by the first record written, and the old file removed.
    await buy(key(2), 1);
    expect(existsSync(legacyJson(kit))).toBe(false);
    expect([0, 1, 2].map((i) => records(kit).get(boughtKey(kit, key(1), i))?.v.proxyRef)).toEqual(refs);
    await resumesFree(key(1), refs);
  }, 60_000);

  it('compaction drops expired and overwritten lines and keeps every live record', async () => {
    const { kit, buy, resumesFree } = await setup();
    const refs = await buy(key(1), 2);
    // 5,000 lines of records older than any reader trusts, and one live key written 100 times.
    const old = Date.now() - 3 * DAY;
    const stale = Array.from({ length: 5000 }, (_, i) =>
      JSON.stringify({ k: boughtKey(kit, key(100), i), v: { proxyRef: `PRX-${900000 + i}`, at: old }, at: old }),
    );
    const gen = `idempotency-generation:${kit.sb.baseUrl}:${key(200)}:0`;
    const now = Date.now();
    const overwritten = Array.from({ length: 100 }, (_, i) => JSON.stringify({ k: gen, v: { generation: i + 1, at: now }, at: now }));
    appendFileSync(jsonl(kit), `${[...stale, ...overwritten].join('\n')}\n`);
    expect(lineCount(kit)).toBe(5103);
    const more = await buy(key(2), 1);
    const r = records(kit);
    expect(r.get(gen)?.v.generation).toBe(100);
    expect([...r.keys()].some((k) => k.includes(key(100)))).toBe(false);
    // Key 1's 3 lines, the generation, key 2's 2 lines.
    expect(lineCount(kit)).toBe(6);
    expect(fileMode(jsonl(kit))).toBe(0o600);
    await resumesFree(key(1), refs);
    await resumesFree(key(2), more);
  }, 60_000);

  it('a file left sealed by a compactor killed mid-way is unsealed by the next record, which is kept', async () => {
    const { kit, buy, resumesFree } = await setup();
    const first = await buy(key(1), 2);
    // What a compactor leaves when killed between sealing the file (write bit off) and replacing it.
    chmodSync(jsonl(kit), 0o400);
    const second = await buy(key(2), 2);
    expect(fileMode(jsonl(kit))).toBe(0o600);
    const r = records(kit);
    expect([0, 1].map((i) => r.get(boughtKey(kit, key(2), i))?.v.proxyRef)).toEqual(second);
    await resumesFree(key(1), first);
    await resumesFree(key(2), second);
  }, 60_000);

  it('ten processes buying at once while one of them compacts: every record kept, each unit bought once', async () => {
    const { kit, price, buy, resumesFree } = await setup();
    // A file due for compaction at the first record any of them writes.
    const old = Date.now() - 3 * DAY;
    const stale = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ k: boughtKey(kit, key(100), i), v: { proxyRef: `PRX-${900000 + i}`, at: old }, at: old }),
    );
    mkdirSync(join(kit.home.configDir, 'data'), { recursive: true, mode: 0o700 });
    writeFileSync(jsonl(kit), `${stale.join('\n')}\n`, { mode: 0o600 });
    const bases = Array.from({ length: 10 }, (_, i) => key(i + 1));
    const bought = await Promise.all(bases.map((b) => buy(b, 3)));
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual(bought.flat().sort());
    expect(cents(1000 - s.balanceUsd)).toBe(30 * cents(price));
    const r = records(kit);
    for (const [n, b] of bases.entries()) expect([0, 1, 2].map((i) => r.get(boughtKey(kit, b, i))?.v.proxyRef)).toEqual(bought[n]);
    expect([...r.keys()].some((k) => k.includes(key(100)))).toBe(false);
    expect(lineCount(kit)).toBeLessThan(20_000);
    expect(fileMode(jsonl(kit))).toBe(0o600);
    for (const [n, b] of bases.entries()) await resumesFree(b, bought[n]!);
  }, 120_000);
});
