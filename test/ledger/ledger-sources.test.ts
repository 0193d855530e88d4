// Debits proxyctl did not cause itself: purchases over raw HTTP counted once through `webhook
// listen --ledger` (and a proxyctl purchase seen again as an event still once), what `spend
// --reconcile` says when a purchase was never seen, charges through `proxyctl api`, and status
// per customer.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, spawnListen, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function rawBuy(k: Kit, poolId: string, period: string): Promise<string> {
  const r = await fetch(`${k.sb.baseUrl}/api/reseller/v1/units`, {
    method: 'POST',
    headers: { 'x-api-key': k.sb.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ poolId, period }),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { proxyRef: string }).proxyRef;
}

type Entry = { id: string; ref: string; priceUsd: number; source: string; operation: string };
const spend = async (k: Kit) => JSON.parse(String((await k.run(['spend', '--json'])).stdout)) as Entry[];

describe('debits from elsewhere', () => {
  it('webhook listen --ledger enters raw-HTTP purchases and extensions once; its own purchase stays one entry', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const env = { PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey };
    const listener = await spawnListen(['--ledger'], k.home, env);
    expect((await k.run(['webhook', 'set', listener.url])).exitCode).toBe(0);
    const a = await rawBuy(k, pool!.poolId, '24h');
    const b = await rawBuy(k, pool!.poolId, '3h');
    const ext = await fetch(`${k.sb.baseUrl}/api/reseller/v1/units/${a}/extend`, {
      method: 'POST',
      headers: { 'x-api-key': k.sb.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ period: '7d' }),
    });
    expect(ext.status).toBe(200);
    const mine = await k.run(['units', 'create', '--pool', pool!.poolId, '--period', '12h', '--json']);
    const c = (JSON.parse(String(mine.stdout)) as { proxyRef: string }).proxyRef;
    const seen = (ref: string, event: string) => (r: Record<string, unknown>) =>
      r.event === event && (r.payload as { data: { proxyRef: string } }).data.proxyRef === ref;
    await listener.waitFor(seen(a, 'unit.created'), 'a');
    await listener.waitFor(seen(b, 'unit.created'), 'b');
    await listener.waitFor(seen(a, 'unit.extended'), 'a extended');
    await listener.waitFor(seen(c, 'unit.created'), 'c');
    // A delivery that is not signed with the account's secret is rejected and enters nothing.
    const forged = JSON.stringify({
      id: 'dlv_forged',
      event: 'unit.created',
      occurredAt: new Date().toISOString(),
      data: { proxyRef: 'PRX-666', poolId: pool!.poolId, period: '30d', pricePaid: 999 },
    });
    const answer = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-event': 'unit.created', 'x-service-signature': `sha256=${'0'.repeat(64)}` },
      body: forged,
    });
    expect(answer.status).toBe(400);
    await listener.waitFor((r) => r.type === 'rejected', 'the forged delivery rejected');
    const stopped = await listener.stop();
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toContain('Entering the debits of unit.created and unit.extended deliveries in the ledger');

    const entries = await spend(k);
    expect(entries.some((e) => e.ref === 'PRX-666')).toBe(false);
    expect(entries.map((e) => `${e.operation}:${e.ref}`).sort()).toEqual(
      [`create:${a}`, `create:${b}`, `create:${c}`, `extend:${a}`].sort(),
    );
    expect(entries.filter((e) => e.ref !== c).every((e) => e.source === 'webhook')).toBe(true);
    const s = await k.state();
    for (const u of s.units) {
      expect(entries.filter((e) => e.ref === u.proxyRef).reduce((x, e) => x + cents(e.priceUsd), 0)).toBe(cents(u.pricePaid));
    }
  }, 120_000);

  it('spend --reconcile names the balance change no debit explains (a purchase made elsewhere)', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const [pool] = await pickPools(kit);
    const buy = ['units', 'create', '--pool', pool!.poolId, '--period', '24h'];
    expect((await kit.run(buy)).exitCode).toBe(0);
    let r = await kit.run(['spend', '--reconcile', '--json']);
    expect(JSON.parse(String(r.stdout))).toEqual([]);
    expect(String(r.stderr)).toContain('The ledger explains every balance change proxyctl has seen');
    await rawBuy(kit, pool!.poolId, '3h');
    expect((await kit.run(buy)).exitCode).toBe(0);
    r = await kit.run(['spend', '--reconcile', '--json']);
    const gaps = JSON.parse(String(r.stdout)) as { unexplainedUsd: number }[];
    expect(gaps).toHaveLength(1);
    expect(cents(gaps[0]!.unexplainedUsd)).toBe(cents(pool!.prices['3h']!));
  }, 120_000);

  it('a charge through proxyctl api is priced, held to the budget and entered', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const [pool] = await pickPools(kit);
    const body = JSON.stringify({ poolId: pool!.poolId, period: '24h' });
    const r = await kit.run(['api', 'POST', '/units', '--yes', '--data', body]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const ref = (JSON.parse(String(r.stdout)) as { proxyRef: string }).proxyRef;
    expect(await spend(kit)).toMatchObject([{ id: `create:${ref}`, operation: 'create', source: 'cli', priceUsd: pool!.prices['24h'] }]);
    expect((await kit.run(['config', 'set', 'max-spend-per-day', String(pool!.prices['24h']! + 0.01)])).exitCode).toBe(0);
    const over = await kit.run(['api', 'POST', '/units', '--yes', '--data', body]);
    expect(over.exitCode).toBe(12);
    const unknown = await kit.run(['api', 'POST', `/units/${ref}/extend`, '--yes', '--data', '{}']);
    expect(unknown.exitCode).toBe(12);
    expect(String(unknown.stderr)).toContain('the price of this request is not known from its body');
    expect((await kit.state()).units).toHaveLength(1);
  }, 120_000);

  it('status shows units and spend per customer once units are tagged', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const [pool] = await pickPools(kit);
    expect(
      (await kit.run(['units', 'create', '--pool', pool!.poolId, '--period', '24h', '--count', '2', '--customer', 'acme'])).exitCode,
    ).toBe(0);
    const r = await kit.run(['status', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout)).customers).toEqual([
      { customer: 'acme', activeUnits: 2, spentLast30DaysUsd: (cents(pool!.prices['24h']!) * 2) / 100 },
    ]);
    const table = await kit.run(['status', '-o', 'table']);
    expect(String(table.stdout)).toMatch(/Customers\s+active units and spend in 30 days: acme 2 units, /);
    const piped = String((await kit.run(['status'])).stdout).split('\n');
    expect(piped).toContain('customers.acme.activeUnits\t2');
  }, 120_000);
});
