// Budget holds that belong to a run and its idempotency key (issue 32, point 2): a batch killed with
// kill -9 and resumed with its key completes within a daily budget it fits, the killed run's hold
// taken over rather than counted beside it; `spend holds` lists the holds that count, and
// `--drop` stops a killed run's hold counting once the user has checked what it did.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function setup() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const [pool] = await pickPools(kit);
  return { k: kit, poolId: pool!.poolId, prices: pool!.prices };
}

async function set(k: Kit, key: string, value: string) {
  const r = await k.run(['config', 'set', key, value]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
}

const inFlight = (k: Kit) => async () => ((await k.state()) as { inFlightPurchases?: number }).inFlightPurchases ?? 0;

interface HoldJson {
  id: string;
  state: string;
  operation: string;
  amountUsd: number;
  enteredUsd: number;
  remainingUsd: number;
  idempotencyKey?: string;
  refs: string[];
}

async function holds(k: Kit): Promise<HoldJson[]> {
  const r = await k.run(['spend', 'holds', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout)) as HoldJson[];
}

const usd = (n: number) => cents(n) / 100;

describe('budget holds (owned by a run and its idempotency key)', () => {
  it('a batch killed with kill -9 and resumed with its key completes, and what is really left of the day stays spendable', async () => {
    const { k, poolId, prices } = await setup();
    const price = prices['24h']!;
    await set(k, 'max-spend-per-day', (price * 11).toFixed(2));
    // Three purchases go through; the next ones wait at the engine until the run is dead.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    let passed = 0;
    k.sb.world.engineDelay = () => (passed++ < 3 ? Promise.resolve() : gate);
    const key = randomUUID();
    const args = ['units', 'create', '--pool', poolId, '--period', '24h', '--count', '10', '--idempotency-key', key, '--json'];
    const victim = k.run(args, { reject: false });
    await expect.poll(async () => [(await k.state()).units.length, await inFlight(k)()], { timeout: 30_000, interval: 20 }).toEqual([3, 4]);
    victim.kill('SIGKILL');
    await victim;
    // What it had on the wire goes through after it died: bought, never entered in its ledger.
    k.sb.world.engineDelay = () => Promise.resolve();
    open();
    await expect.poll(inFlight(k), { timeout: 30_000 }).toBe(0);
    expect((await k.state()).units).toHaveLength(7);

    // Resumed at once: it waits for the killed run's hold to go, takes it over and completes.
    const resumed = await k.run(args);
    expect(resumed.exitCode, String(resumed.stderr)).toBe(0);
    expect(JSON.parse(String(resumed.stdout))).toHaveLength(10);
    let s = await k.state();
    expect(s.units).toHaveLength(10);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 10);
    const spent = JSON.parse(String((await k.run(['spend', '--json'])).stdout)) as { priceUsd: number }[];
    expect(spent.reduce((x, e) => x + cents(e.priceUsd), 0)).toBe(cents(price) * 10);
    expect(await holds(k)).toEqual([]);

    // One more unit is what is left of the day: it is bought; a second is refused before any charge.
    const fits = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(fits.exitCode, String(fits.stderr)).toBe(0);
    const over = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(over.exitCode).toBe(12);
    expect(String(over.stderr)).toContain(`${usd(price * 11).toFixed(2)} USD was spent in the last 24 hours`);
    s = await k.state();
    expect(s.units).toHaveLength(11);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 11);
  }, 120_000);

  it('spend holds shows the hold of a run at work, which cannot be dropped, and nothing once it has ended', async () => {
    const { k, poolId, prices } = await setup();
    const price = prices['24h']!;
    await set(k, 'max-spend-per-day', (price * 5).toFixed(2));
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    k.sb.world.engineDelay = () => gate;
    const key = randomUUID();
    const run = k.run(['units', 'create', '--pool', poolId, '--period', '24h', '--count', '2', '--idempotency-key', key, '--json']);
    await expect.poll(inFlight(k), { timeout: 30_000, interval: 20 }).toBe(2);

    const [live, ...more] = await holds(k);
    expect(more).toEqual([]);
    expect(live).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      state: 'live',
      operation: 'create',
      startedAt: expect.any(String),
      amountUsd: usd(price * 2),
      enteredUsd: 0,
      remainingUsd: usd(price * 2),
      idempotencyKey: key,
      refs: [],
      host: expect.any(String),
      source: 'cli',
    });
    const drop = await k.run(['spend', 'holds', '--drop', live!.id]);
    expect(drop.exitCode).toBe(8);
    expect(String(drop.stderr)).toContain(`hold ${live!.id} belongs to a run still at work`);

    open();
    const done = await run;
    expect(done.exitCode, String(done.stderr)).toBe(0);
    expect(await holds(k)).toEqual([]);
    const gone = await k.run(['spend', 'holds', '--drop', live!.id]);
    expect(gone.exitCode).toBe(5);
    expect(cents(1000 - (await k.state()).balanceUsd)).toBe(cents(price) * 2);
  }, 120_000);

  it("a killed renewal's hold is listed as killed and keeps counting until --drop frees it", async () => {
    const { k, poolId, prices } = await setup();
    const made = await k.run(['units', 'create', '--pool', poolId, '--period', '3h', '--count', '2', '--json']);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const refs = (JSON.parse(String(made.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef).sort();
    const ext = prices['24h']!;
    // Room for the two extensions, and not for one more 24h unit beside them.
    await set(k, 'max-spend-per-day', usd(prices['3h']! * 2 + ext * 2).toFixed(2));

    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    k.sb.world.engineDelay = () => gate;
    const victim = k.run(['units', 'extend', ...refs, '--period', '24h', '--yes'], { reject: false });
    await expect.poll(inFlight(k), { timeout: 30_000, interval: 20 }).toBe(2);
    victim.kill('SIGKILL');
    await victim;
    // The extensions it had on the wire fail upstream (refunded): the user will find them not applied.
    const world = k.sb.world;
    const fails = world.engineFails.bind(world);
    let failing = true;
    world.engineFails = (pool: string) => failing || fails(pool);
    world.engineDelay = () => Promise.resolve();
    open();
    await expect.poll(inFlight(k), { timeout: 30_000 }).toBe(0);
    failing = false;

    await expect.poll(async () => (await holds(k)).map((h) => h.state), { timeout: 30_000, interval: 500 }).toEqual(['killed']);
    const [dead] = await holds(k);
    expect(dead).toMatchObject({ operation: 'extend', refs, amountUsd: usd(ext * 2), enteredUsd: 0, remainingUsd: usd(ext * 2) });
    expect(dead!.idempotencyKey).toBeUndefined();
    const refused = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(refused.exitCode).toBe(12);
    expect(String(refused.stderr)).toContain(`${usd(ext * 2).toFixed(2)} USD held by runs that were killed`);

    const drop = await k.run(['spend', 'holds', '--drop', dead!.id, '--json']);
    expect(drop.exitCode, String(drop.stderr)).toBe(0);
    expect(JSON.parse(String(drop.stdout))).toMatchObject({ id: dead!.id, state: 'killed', remainingUsd: usd(ext * 2) });
    expect(String(drop.stderr)).toContain(`dropped hold ${dead!.id}`);
    expect(await holds(k)).toEqual([]);
    const bought = await k.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    expect(cents(1000 - (await k.state()).balanceUsd)).toBe(cents(prices['3h']!) * 2 + cents(ext));
  }, 120_000);
});
