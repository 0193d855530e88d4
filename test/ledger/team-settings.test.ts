// Customer prices changed at once by several runs (issue 37): on two machines sharing one ledger in
// PostgreSQL, and on one machine's config file. Each run changes one customer (sets a markup or a
// fixed price, or forgets the prices) and none may lose another's: `customers set/unset` change the
// price map under the lock of where it lives (SettingsSource.update), from the map as it is then.
//
// The shared case lines the runs up deterministically: the test holds a SHARE lock on the settings
// table (reads pass, writes wait) until every run is waiting on a lock in the database, so each one
// has done whatever it reads before writing. A run that read the map outside the lock (main before
// this change: read(), merge, set()) then writes the map as it was before all of them: every change
// but the last writer's is lost. Under the setting's advisory lock, the others wait before reading.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  cents,
  cleanupMachines,
  type Kit,
  type Machine,
  machine,
  needing,
  type Postgres,
  pickPools,
  postgresMissing,
  startKit,
  startPostgres,
  succeeds,
} from '../helpers/index.js';

const missing = postgresMissing();
let db: Postgres | undefined;
let kit: Kit | undefined;

beforeAll(async () => {
  if (!missing) db = await startPostgres();
}, 120_000);
afterAll(async () => {
  await db?.close();
});
afterEach(async () => {
  await kit?.close();
  kit = undefined;
  cleanupMachines();
});

const CUSTOMERS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];

/** Before: one 24h unit for each customer, c5 and c6 with prices of their own. */
async function seed(run: Machine['run'], poolId: string) {
  for (const c of CUSTOMERS)
    await succeeds(run(['units', 'create', '--pool', poolId, '--period', '24h', '--customer', c, '--yes', '--json']));
  await succeeds(run(['customers', 'set', 'c5', '--markup', '40%']));
  await succeeds(run(['customers', 'set', 'c6', '--price', '24h=9']));
}

/** The changes made at once, each its own run: four customers priced, two forgotten, the default markup set. */
const CHANGES = [
  ['customers', 'set', 'c1', '--markup', '10%'],
  ['customers', 'set', 'c2', '--markup', '20%'],
  ['customers', 'set', 'c3', '--price', '24h=7'],
  ['customers', 'set', 'c4', '--price', '24h=8', '--price', '7d=30'],
  ['customers', 'unset', 'c5'],
  ['customers', 'unset', 'c6'],
  ['config', 'set', 'default-markup', '5%'],
];

/** What each customer is billed for its one unit once every change holds. */
function expectedBilled(price: number): Record<string, number> {
  const p = cents(price);
  return {
    c1: Math.round(p * 1.1),
    c2: Math.round(p * 1.2),
    c3: 700,
    c4: 800,
    c5: Math.round(p * 1.05),
    c6: Math.round(p * 1.05),
  };
}

async function billed(run: Machine['run']): Promise<Record<string, number>> {
  const rows = JSON.parse(String((await succeeds(run(['customers', 'list', '--json']))).stdout)) as {
    customer: string | null;
    billedUsd: number;
  }[];
  return Object.fromEntries(rows.filter((r) => r.customer !== null).map((r) => [r.customer, cents(r.billedUsd)]));
}

describe.skipIf(missing !== undefined)(
  needing("the team's customer prices in PostgreSQL, changed at once on two machines", missing),
  () => {
    it('customers set/unset and config set default-markup at once on two machines: every change holds on both', async () => {
      kit = await startKit({ balance: 1000, rateLimit: 10_000 });
      const [pool] = await pickPools(kit);
      const url = await db!.createDatabase(`team_settings_${process.pid}`);
      const a = machine(kit, { PROXYCTL_LEDGER_URL: url });
      const b = machine(kit, { PROXYCTL_LEDGER_URL: url });
      await seed(a.run, pool!.poolId);

      const gate = new pg.Client({ connectionString: url, application_name: 'proxyctl-test-gate' });
      // Watched from a connection of its own: inside the gate's transaction pg_stat_activity is a snapshot.
      const watch = new pg.Client({ connectionString: url, application_name: 'proxyctl-test-watch' });
      await Promise.all([gate.connect(), watch.connect()]);
      let runs: Awaited<ReturnType<Machine['run']>>[];
      try {
        await gate.query('BEGIN');
        await gate.query('LOCK TABLE proxyctl_settings IN SHARE MODE');
        const started = CHANGES.map((args, i) => (i % 2 === 0 ? a : b).run(args));
        // Every run is waiting on a lock in the database: each has read whatever it reads first.
        await expect
          .poll(
            async () =>
              Number(
                (
                  await watch.query<{ n: string }>(
                    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'proxyctl' AND wait_event_type = 'Lock'",
                  )
                ).rows[0]!.n,
              ),
            { timeout: 60_000, interval: 50 },
          )
          .toBe(CHANGES.length);
        await gate.query('COMMIT');
        runs = await Promise.all(started);
      } finally {
        await Promise.all([gate.end(), watch.end()]);
      }
      for (const r of runs) expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(String(runs[0]!.stderr)).toContain("c1: markup 10% (the team's, in postgres://proxyctl:***@127.0.0.1:");
      expect(String(runs[4]!.stderr)).toContain("c5: prices forgotten (the team's, in postgres://");

      const want = expectedBilled(pool!.prices['24h']!);
      expect(await billed(a.run)).toEqual(want);
      expect(await billed(b.run)).toEqual(want);
      // What is stored: exactly the four customers priced at once, nothing of the two forgotten.
      const stored = await db!.sql(
        "SELECT value FROM proxyctl_settings WHERE name = 'customerPrices'",
        url.slice(url.lastIndexOf('/') + 1),
      );
      expect(JSON.parse(stored)).toEqual({
        c1: { markupPercent: 10 },
        c2: { markupPercent: 20 },
        c3: { prices: { '24h': 7 } },
        c4: { prices: { '24h': 8, '7d': 30 } },
      });
    }, 180_000);
  },
);

describe("one machine's customer prices, changed at once by several runs", () => {
  it('customers set/unset and config set default-markup at once on one config dir: every change holds', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    await seed((args) => k.run(args), pool!.poolId);
    const runs = await Promise.all(CHANGES.map((args) => k.run(args)));
    for (const r of runs) expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(runs[0]!.stderr)).toContain('c1: markup 10% (profile "default")');
    expect(await billed((args) => k.run(args))).toEqual(expectedBilled(pool!.prices['24h']!));
  }, 120_000);
});
