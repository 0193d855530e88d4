// A team on one account (issue 37): several machines (processes with their own HOME and config
// dir) share one ledger in a real PostgreSQL server (test/helpers/postgres.ts, one cluster for the
// file). The team's daily budget holds across machines under parallel buyers, spend is the same on
// every machine and equal to the sandbox's debits, a batch killed on one machine is finished on
// another with its key, a killed holder's hold is released through the database, two machines
// migrate an empty database at once, and a database stopped mid-run charges nothing unrecorded.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  cents,
  type Kit,
  needing,
  type Postgres,
  pickPools,
  postgresMissing,
  proxyctl,
  startKit,
  startPostgres,
  type TempHome,
  tempHome,
} from '../helpers/index.js';
import { type Debit, longJournal, writeJournal } from './long-journal.js';

const missing = postgresMissing();
let pg: Postgres;
let kit: Kit | undefined;
const homes: TempHome[] = [];

beforeAll(async () => {
  if (!missing) pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.close();
});
afterEach(async () => {
  await kit?.close();
  kit = undefined;
  for (const h of homes.splice(0)) h.cleanup();
});

let dbs = 0;
/** A sandbox, a fresh database, and the price of a 24h unit in its first pool. */
async function setup() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const [pool] = await pickPools(kit);
  const url = await pg.createDatabase(`team_${process.pid}_${++dbs}`);
  return { k: kit, url, poolId: pool!.poolId, price: pool!.prices['24h']! };
}

interface Machine {
  home: TempHome;
  run(args: string[], env?: Record<string, string>): ReturnType<typeof proxyctl>;
}

/** A machine of the team: its own HOME, XDG dirs and config dir, the account's key in its environment. */
function machine(k: Kit, env: Record<string, string> = {}): Machine {
  const home = tempHome();
  homes.push(home);
  return {
    home,
    run: (args, more = {}) =>
      proxyctl(args, { home, reject: false, env: { PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey, ...env, ...more } }),
  };
}

async function ok(p: ReturnType<typeof proxyctl>) {
  const r = await p;
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return r;
}

const spendOf = async (m: Machine) =>
  (JSON.parse(String((await ok(m.run(['spend', '--json']))).stdout)) as { id: string; priceUsd: number }[])
    .map((e) => [e.id, cents(e.priceUsd)] as const)
    .sort();

const inFlight = (k: Kit) => async () => ((await k.state()) as { inFlightPurchases?: number }).inFlightPurchases ?? 0;

describe.skipIf(missing !== undefined)(needing('a team on one account, sharing a ledger in PostgreSQL', missing), () => {
  it('two machines migrating an empty database at once both end at the same schema, applied once', async () => {
    const { k, url } = await setup();
    const machines = [machine(k), machine(k), machine(k)];
    const runs = await Promise.all(machines.map((m) => m.run(['ledger', 'status', '--json'], { PROXYCTL_LEDGER_URL: url })));
    for (const r of runs) {
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(JSON.parse(String(r.stdout))).toMatchObject({
        store: 'postgres',
        reachable: true,
        schemaVersion: 1,
        knownVersion: 1,
        debits: 0,
      });
    }
    const db = url.slice(url.lastIndexOf('/') + 1);
    expect(await pg.sql("SELECT string_agg(version::text, ',') FROM proxyctl_schema", db)).toBe('1\n');
  }, 60_000);

  it('a team budget holds across machines: of parallel buyers on three machines exactly what fits buys, and every machine spends the same', async () => {
    const { k, url, poolId, price } = await setup();
    const a = machine(k);
    // One machine stores the URL (its password kept apart); the others take it from the environment.
    await ok(a.run(['config', 'set', 'ledger-url', url]));
    const b = machine(k, { PROXYCTL_LEDGER_URL: url });
    const c = machine(k, { PROXYCTL_LEDGER_URL: url });
    await ok(b.run(['config', 'set', 'max-spend-per-day', (price * 3).toFixed(2)]));
    // The team's budget, read by every machine: a's own profile has none.
    expect(String((await ok(a.run(['config', 'get', 'max-spend-per-day']))).stdout).trim()).toBe((price * 3).toFixed(2));

    const buyers = [a, b, c, a, b, c, a, b, c];
    const runs = await Promise.all(buyers.map((m) => m.run(['units', 'create', '--pool', poolId, '--period', '24h', '--json'])));
    const codes = runs.map((r) => r.exitCode).sort();
    expect(codes).toEqual([0, 0, 0, 12, 12, 12, 12, 12, 12]);
    for (const r of runs.filter((x) => x.exitCode === 12)) expect(String(r.stderr)).toContain('nothing was charged');

    const s = await k.state();
    expect(s.units).toHaveLength(3);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 3);
    const sandbox = s.units.map((u) => [`create:${u.proxyRef}`, cents(u.pricePaid)] as const).sort();
    for (const m of [a, b, c]) expect(await spendOf(m)).toEqual(sandbox);
  }, 120_000);

  it("customer prices are the team's: set on one machine, every machine bills with them", async () => {
    const { k, url, poolId, price } = await setup();
    const a = machine(k, { PROXYCTL_LEDGER_URL: url });
    const b = machine(k, { PROXYCTL_LEDGER_URL: url });
    const set = await ok(a.run(['customers', 'set', 'acme', '--markup', '50%']));
    expect(String(set.stderr)).toContain("the team's");
    await ok(a.run(['config', 'set', 'default-markup', '10%']));
    await ok(b.run(['units', 'create', '--pool', poolId, '--period', '24h', '--count', '2', '--customer', 'acme', '--yes', '--json']));
    await ok(b.run(['units', 'create', '--pool', poolId, '--period', '24h', '--customer', 'globex', '--yes', '--json']));
    // b never set a price: it bills acme at the team's markup and globex at the team's default.
    for (const m of [a, b]) {
      const rows = JSON.parse(String((await ok(m.run(['customers', '--json']))).stdout)) as {
        customer: string | null;
        costUsd: number;
        billedUsd: number;
      }[];
      const acme = rows.find((r) => r.customer === 'acme')!;
      const globex = rows.find((r) => r.customer === 'globex')!;
      expect(cents(acme.costUsd)).toBe(cents(price) * 2);
      expect(cents(acme.billedUsd)).toBe(Math.round(cents(price) * 1.5) * 2);
      expect(cents(globex.billedUsd)).toBe(Math.round(cents(price) * 1.1));
    }
    await ok(b.run(['customers', 'unset', 'acme']));
    const after = JSON.parse(String((await ok(a.run(['customers', '--json']))).stdout)) as { customer: string | null; billedUsd: number }[];
    expect(cents(after.find((r) => r.customer === 'acme')!.billedUsd)).toBe(Math.round(cents(price) * 1.1) * 2);
  }, 120_000);

  it('a batch killed with kill -9 on one machine is finished with its key on another; the killed hold goes through the database', async () => {
    const { k, url, poolId, price } = await setup();
    const a = machine(k, { PROXYCTL_LEDGER_URL: url });
    const b = machine(k, { PROXYCTL_LEDGER_URL: url });
    await ok(a.run(['config', 'set', 'max-spend-per-day', (price * 6).toFixed(2)]));
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    let passed = 0;
    k.sb.world.engineDelay = () => (passed++ < 2 ? Promise.resolve() : gate);
    const key = randomUUID();
    const args = ['units', 'create', '--pool', poolId, '--period', '24h', '--count', '6', '--idempotency-key', key, '--json'];
    const victim = a.run(args);
    await expect.poll(async () => [(await k.state()).units.length, await inFlight(k)()], { timeout: 30_000, interval: 20 }).toEqual([2, 4]);
    victim.kill('SIGKILL');
    await victim;
    // Its session ended with its process: machine b sees its hold as killed at once, by the database's word.
    await expect
      .poll(
        async () => (JSON.parse(String((await ok(b.run(['spend', 'holds', '--json']))).stdout)) as { state: string }[]).map((h) => h.state),
        {
          timeout: 10_000,
          interval: 100,
        },
      )
      .toEqual(['killed']);
    // What it had on the wire goes through after it died: bought, never entered.
    k.sb.world.engineDelay = () => Promise.resolve();
    open();
    await expect.poll(inFlight(k), { timeout: 30_000 }).toBe(0);
    expect((await k.state()).units).toHaveLength(6);

    // Machine b resumes the batch with the key: it takes the killed hold over, replays what a bought
    // (from the shared purchase records) and finishes within the budget, buying nothing twice.
    const resumed = await ok(b.run(args));
    expect(JSON.parse(String(resumed.stdout))).toHaveLength(6);
    const s = await k.state();
    expect(s.units).toHaveLength(6);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 6);
    const sandbox = s.units.map((u) => [`create:${u.proxyRef}`, cents(u.pricePaid)] as const).sort();
    expect(await spendOf(a)).toEqual(sandbox);
    expect(await spendOf(b)).toEqual(sandbox);
    expect(JSON.parse(String((await ok(b.run(['spend', 'holds', '--json']))).stdout))).toEqual([]);
    // The day is spent: one more unit on either machine is refused before any charge.
    const over = await a.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(over.exitCode, String(over.stderr)).toBe(12);
  }, 120_000);

  it('the database stopped mid-run: the run stops, every charge is recorded, nothing is charged while it is down, and ledger push brings it back', async () => {
    const { k, url, poolId, price } = await setup();
    const a = machine(k, { PROXYCTL_LEDGER_URL: url });
    await ok(a.run(['ledger', 'status']));
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    let passed = 0;
    k.sb.world.engineDelay = () => (passed++ < 2 ? Promise.resolve() : gate);
    const key = randomUUID();
    const args = ['units', 'create', '--pool', poolId, '--period', '24h', '--count', '8', '--idempotency-key', key, '--json'];
    const run = a.run(args);
    await expect.poll(async () => [(await k.state()).units.length, await inFlight(k)()], { timeout: 30_000, interval: 20 }).toEqual([2, 4]);
    await pg.stop();
    try {
      open();
      const r = await run;
      expect(r.exitCode, String(r.stderr)).toBe(9);
      const err = String(r.stderr);
      expect(err).toContain('the shared ledger postgres://proxyctl:***@127.0.0.1:');
      expect(err).toContain('proxyctl ledger push');
      expect(err).not.toContain(pg.password);
      expect(err).not.toContain(encodeURIComponent(pg.password));
      // What was bought is printed and stays; nothing past the loss was started.
      const bought = await k.state();
      expect(bought.units).toHaveLength(6);
      expect(cents(1000 - bought.balanceUsd)).toBe(cents(price) * 6);

      // Every charge has its record: the two entered before the stop in the database, the four after
      // it in this machine's journal (read straight from the file: the database is down).
      const journal = readFileSync(join(a.home.configDir, 'data', 'ledger', `${accountFile(k)}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id);
      expect(new Set(journal).size).toBe(4);

      // While it is down nothing is charged, and reads that need no ledger still work.
      const refused = await a.run(['units', 'create', '--pool', poolId, '--period', '24h']);
      expect(refused.exitCode).toBe(9);
      expect(String(refused.stderr)).toContain('nothing was charged');
      expect((await k.state()).units).toHaveLength(6);
      await ok(a.run(['units', 'list', '--json']));
      await ok(a.run(['me', '--json']));
      const down = await a.run(['ledger', 'status', '--json']);
      expect(down.exitCode).toBe(9);
      expect(JSON.parse(String(down.stdout))).toMatchObject({ store: 'postgres', reachable: false });
    } finally {
      await pg.start();
    }
    // Back: the status names what this machine holds that the database lacks, push copies it once.
    expect(JSON.parse(String((await ok(a.run(['ledger', 'status', '--json']))).stdout))).toMatchObject({
      reachable: true,
      debits: 2,
      notPushed: 4,
    });
    const pushed = JSON.parse(String((await ok(a.run(['ledger', 'push', '--json']))).stdout)) as { debits: number; added: number };
    expect(pushed).toMatchObject({ debits: 4, added: 4 });
    expect(JSON.parse(String((await ok(a.run(['ledger', 'push', '--json']))).stdout))).toMatchObject({ debits: 4, added: 0 });
    const s = await k.state();
    expect(await spendOf(a)).toEqual(s.units.map((u) => [`create:${u.proxyRef}`, cents(u.pricePaid)] as const).sort());
    // The batch finishes with its key: the two never started are bought, the six replayed.
    const resumed = await ok(a.run(args));
    expect(JSON.parse(String(resumed.stdout))).toHaveLength(8);
    expect(cents(1000 - (await k.state()).balanceUsd)).toBe(cents(price) * 8);
    expect(await spendOf(a)).toHaveLength(8);
  }, 180_000);

  it('a long ledger pushed to the database reads there, page after page, exactly as from the file: merged, attributed, in order', async () => {
    const { k, url } = await setup();
    // 5,000 debits: more than two of the database's pages (PgJournal.pages reads 2,000 at a time).
    const { text, debits } = longJournal(5000, Date.now());
    const a = machine(k);
    writeJournal(a.home.configDir, k.sb.baseUrl, k.sb.apiKey, text);
    const fromFile = async (m: Machine, args: string[], env?: Record<string, string>) =>
      JSON.parse(String((await ok(m.run(args, env))).stdout));
    const spendFile = (await fromFile(a, ['spend', '--json'])) as Debit[];
    expect(spendFile).toEqual(debits);
    expect(JSON.parse(String((await ok(a.run(['ledger', 'push', '--json'], { PROXYCTL_LEDGER_URL: url }))).stdout))).toMatchObject({
      debits: 5000,
      added: 5000,
    });
    const b = machine(k, { PROXYCTL_LEDGER_URL: url });
    expect((await fromFile(b, ['ledger', 'status', '--json'])).debits).toBe(5000);
    expect(await fromFile(b, ['spend', '--json'])).toEqual(debits);
    expect(await fromFile(b, ['spend', '--by', 'customer', '--json'])).toEqual(await fromFile(a, ['spend', '--by', 'customer', '--json']));
    expect((await fromFile(b, ['status', '--json'])).customers).toEqual((await fromFile(a, ['status', '--json'])).customers);
  }, 180_000);

  it("ledger-url's password is kept apart and never printed, --debug included", async () => {
    const { k, url } = await setup();
    const a = machine(k);
    const set = await ok(a.run(['config', 'set', 'ledger-url', url]));
    const cfg = readFileSync(join(a.home.configDir, 'config.json'), 'utf8');
    const profile = (JSON.parse(cfg) as { profiles: Record<string, Record<string, unknown>> }).profiles.default!;
    expect(profile.ledgerUrl).toBe(url.replace(`:${encodeURIComponent(pg.password)}@`, '@'));
    // No keyring here (test/setup): the password goes to the 0600 config file, as an API key would.
    expect(profile.ledgerPassword).toBe(pg.password);
    const outputs = [
      set,
      await ok(a.run(['config', 'get', 'ledger-url'])),
      await ok(a.run(['ledger', 'status', '--json', '--debug'])),
      await ok(a.run(['spend', '--debug'])),
    ];
    for (const r of outputs) {
      expect(String(r.stdout) + String(r.stderr)).not.toContain(pg.password);
      expect(String(r.stdout) + String(r.stderr)).not.toContain(encodeURIComponent(pg.password));
    }
    // A wrong password is refused before anything is saved, and not printed either.
    const wrong = await a.run(['config', 'set', 'ledger-url', url.replace(encodeURIComponent(pg.password), 'not-it')]);
    expect(wrong.exitCode).toBe(9);
    expect(String(wrong.stderr)).toContain('password authentication failed');
    expect(String(wrong.stderr)).not.toContain('not-it');
  }, 60_000);
});

/** The account file name of the kit's key (the ledger's per-account journal), as the client names it. */
function accountFile(k: Kit): string {
  const host = new URL(k.sb.baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
  return `${host}-${createHash('sha256').update(k.sb.apiKey).digest('hex').slice(0, 16)}`;
}
