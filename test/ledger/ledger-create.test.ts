// The ledger as a reseller meets it: units bought with the built binary against the sandbox, then
// `proxyctl spend` read back. It must equal what the sandbox debited, unit for unit, after tagged
// purchases, refunded failures and their re-run, a kill -9 in the middle of a batch, and ten
// processes buying at once.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

type Entry = {
  id: string;
  ref: string;
  operation: string;
  priceUsd: number;
  customer?: string;
  source: string;
  poolId: string;
  period: string;
};

async function spend(k: Kit, ...args: string[]): Promise<Entry[]> {
  const r = await k.run(['spend', '--json', ...args]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout)) as Entry[];
}

/** Every unit's debits in the ledger add up to what the sandbox charged for it, and nothing else is there. */
async function ledgerMatchesSandbox(k: Kit, startBalance: number): Promise<Entry[]> {
  const entries = await spend(k);
  const s = await k.state();
  expect(new Set(entries.map((e) => e.ref))).toEqual(new Set(s.units.map((u) => u.proxyRef)));
  for (const u of s.units) {
    const paid = entries.filter((e) => e.ref === u.proxyRef).reduce((sum, e) => sum + cents(e.priceUsd), 0);
    expect(paid, u.proxyRef).toBe(cents(u.pricePaid));
  }
  expect(entries.reduce((sum, e) => sum + cents(e.priceUsd), 0)).toBe(cents(startBalance - s.balanceUsd));
  return entries;
}

const keyOf = (stderr: unknown) => /--idempotency-key ([0-9a-f-]{36})/.exec(String(stderr))?.[1];

describe('the ledger and spend', () => {
  it('a tagged purchase and an extension: entries per unit, customer tags on the units, spend --by customer', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const [pool] = await pickPools(kit);
    const made = await kit.run([
      'units',
      'create',
      '--pool',
      pool!.poolId,
      '--period',
      '24h',
      '--count',
      '3',
      '--customer',
      'acme',
      '--description',
      'batch 7',
      '--json',
    ]);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const other = await kit.run(['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--json']);
    expect(other.exitCode).toBe(0);
    const acmeRef = (JSON.parse(String(made.stdout)) as { proxyRef: string }[])[0]!.proxyRef;
    const ext = await kit.run(['units', 'extend', acmeRef, '--period', '7d', '--json']);
    expect(ext.exitCode, String(ext.stderr)).toBe(0);

    const entries = await ledgerMatchesSandbox(kit, 1000);
    expect(entries).toHaveLength(5);
    const s = await kit.state();
    const acme = s.units.filter((u) => (u as { description?: string }).description === 'customer=acme batch 7');
    expect(acme).toHaveLength(3);
    expect(
      entries
        .filter((e) => e.customer === 'acme')
        .map((e) => e.operation)
        .sort(),
    ).toEqual(['create', 'create', 'create', 'extend']);
    for (const e of entries) expect(e).toMatchObject({ source: 'cli', poolId: pool!.poolId });

    const by = await kit.run(['spend', '--by', 'customer', '--json']);
    expect(by.exitCode).toBe(0);
    const price = pool!.prices;
    expect(JSON.parse(String(by.stdout))).toEqual([
      { group: 'acme', count: 4, created: 3, extended: 1, totalUsd: (cents(price['24h']!) * 3 + cents(price['7d']!)) / 100 },
      { group: '(none)', count: 1, created: 1, extended: 0, totalUsd: price['3h'] },
    ]);
    const csv = await kit.run(['spend', '--by', 'period', '-o', 'csv']);
    expect(String(csv.stdout).split('\n')[0]).toBe('group,count,created,extended,totalUsd');
  }, 120_000);

  it('refunded failures and the re-run that finishes the batch: each bought unit once, no refunded one', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const [pool] = await pickPools(kit);
    let calls = 0;
    kit.sb.world.engineFails = () => ++calls % 2 === 0;
    const args = ['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', '6', '--json'];
    const first = await kit.run(args);
    const key = keyOf(first.stderr)!;
    expect(key).toBeDefined();
    kit.sb.world.engineFails = () => false;
    const again = await kit.run([...args, '--idempotency-key', key]);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    // A third run replays all six: nothing new is entered.
    expect((await kit.run([...args, '--idempotency-key', key])).exitCode).toBe(0);
    const entries = await ledgerMatchesSandbox(kit, 1000);
    expect(entries).toHaveLength(6);
  }, 120_000);

  it('kill -9 in the middle of a batch, then the same command again: the ledger still equals the sandbox', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000, engineDelayMs: 150 });
    const [pool] = await pickPools(kit);
    const args = ['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', '12', '--json'];
    const child = kit.run(args, { reject: false });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    // Killed once some units exist (some entered, maybe one bought and not yet entered).
    const k = kit;
    await expect.poll(async () => (await k.state()).units.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(4);
    child.kill('SIGKILL');
    await child;
    const key = keyOf(err)!;
    expect(key).toBeDefined();
    const rest = await kit.run([...args, '--idempotency-key', key]);
    expect(rest.exitCode, String(rest.stderr)).toBe(0);
    const entries = await ledgerMatchesSandbox(kit, 1000);
    expect(entries).toHaveLength(12);
  }, 120_000);

  it('ten processes buying at once on one config dir: every debit entered, none twice', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const [pool] = await pickPools(kit);
    const k = kit;
    const runs = await Promise.all(
      Array.from({ length: 10 }, () => k.run(['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--count', '2', '--json'])),
    );
    for (const r of runs) expect(r.exitCode, String(r.stderr)).toBe(0);
    const entries = await ledgerMatchesSandbox(kit, 1000);
    expect(entries).toHaveLength(20);
  }, 120_000);
});
