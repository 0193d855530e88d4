// Who a debit belongs to, whoever entered it: a purchase seen by `webhook listen --ledger` and by
// the run that made it is one debit with the run's customer, whichever line came first; a charge
// through `proxyctl api` carries the unit's customer and country; units bought untagged and tagged
// later count for their customer, and a retag leaves past debits where they were.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cents, freePort, type Kit, pickPools, pointWebhookAt, spawnListen, startKit } from '../helpers/index.js';
import { ok, startMcp } from '../mcp/mcp-client.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

type Entry = { id: string; ref: string; operation: string; priceUsd: number; customer?: string; source: string; country?: string };
type Group = { group: string; count: number; created: number; extended: number; totalUsd: number };

async function spendOf<T>(k: Kit, ...args: string[]): Promise<T> {
  const r = await k.run(['spend', '--json', ...args]);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout)) as T;
}

/** The journal's raw lines (every line written, before readers merge them). */
function journalLines(k: Kit): Record<string, unknown>[] {
  const dir = join(k.home.configDir, 'data', 'ledger');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !f.includes('balances'));
  return readFileSync(join(dir, file!), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const created = (ref: string) => (r: Record<string, unknown>) =>
  r.event === 'unit.created' && (r.payload as { data: { proxyRef: string } }).data.proxyRef === ref;

/** What the sandbox charged for these units, in cents. */
async function charged(k: Kit, refs: readonly string[]): Promise<number> {
  const s = await k.state();
  return s.units.filter((u) => refs.includes(u.proxyRef)).reduce((sum, u) => sum + cents(u.pricePaid), 0);
}

/** Each customer's three units: spend per customer and per debit, and status, say the sandbox's sum once. */
async function countedFor(k: Kit, bought: Record<string, readonly string[]>): Promise<void> {
  const names = Object.keys(bought).sort();
  const totals = new Map<string, number>();
  for (const name of names) totals.set(name, (await charged(k, bought[name]!)) / 100);
  expect(await spendOf<Group[]>(k, '--by', 'customer')).toEqual(
    names.map((group) => ({ group, count: 3, created: 3, extended: 0, totalUsd: totals.get(group) })),
  );
  const entries = await spendOf<Entry[]>(k);
  expect(entries.map((e) => e.ref).sort()).toEqual(names.flatMap((n) => bought[n]!).sort());
  for (const name of names) {
    for (const ref of bought[name]!) {
      expect(entries.filter((e) => e.ref === ref)).toMatchObject([{ id: `create:${ref}`, customer: name, source: 'cli' }]);
    }
  }
  const status = await k.run(['status', '--json']);
  expect(status.exitCode, String(status.stderr)).toBe(0);
  expect(JSON.parse(String(status.stdout)).customers).toEqual(
    names.map((customer) => ({ customer, activeUnits: 3, spentLast30DaysUsd: totals.get(customer) })),
  );
}

describe('one debit, one customer, whichever writer enters first', () => {
  it('whichever enters first, the webhook or the run, the debits read the same', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const env = { PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey };
    const buy = (customer: string) => [
      'units',
      'create',
      '--pool',
      pool!.poolId,
      '--period',
      '24h',
      '--count',
      '3',
      '--customer',
      customer,
      '--yes',
    ];

    // The webhook first: every answer to zeta's purchases is lost (the first attempt of each unit
    // and its four retries, which replay it), so the units are bought and the webhook enters them
    // while the run enters nothing; the same command again replays them (free) and enters them.
    const listener = await spawnListen(['--ledger'], k.home, env);
    expect((await k.run(['webhook', 'set', listener.url])).exitCode).toBe(0);
    await k.control('/faults', { dropAfterCommit: { op: 'create', count: 15 } });
    const key = '3f2b9c1e-8d4a-4b7e-9a61-2c5d8e0f7a13';
    const lost = await k.run([...buy('zeta'), '--idempotency-key', key]);
    expect(lost.exitCode).not.toBe(0);
    const zeta = (await k.state()).units.map((u) => u.proxyRef);
    expect(zeta).toHaveLength(3);
    for (const ref of zeta) await listener.waitFor(created(ref), ref);
    expect((await listener.stop()).exitCode).toBe(0);
    expect(journalLines(k).map((l) => [l.source, l.customer])).toEqual(zeta.map(() => ['webhook', undefined]));
    const before = (await k.state()).balanceUsd;
    const resumed = await k.run([...buy('zeta'), '--idempotency-key', key]);
    expect(resumed.exitCode, String(resumed.stderr)).toBe(0);
    expect((await k.state()).balanceUsd).toBe(before);
    expect(journalLines(k)).toHaveLength(6);

    // The run first: nobody listens while eta's units are bought, so their deliveries wait for the
    // retry, which a listener started afterwards receives.
    const port = await freePort();
    await pointWebhookAt(k.sb, port);
    const made = await k.run([...buy('eta'), '--json']);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const eta = (JSON.parse(String(made.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef);
    await k.sb.deliveriesIdle();
    const late = await spawnListen(['--ledger', '--port', String(port)], k.home, env);
    k.sb.advance(60);
    for (const ref of eta) await late.waitFor(created(ref), ref);
    expect((await late.stop()).exitCode).toBe(0);

    await countedFor(k, { zeta, eta });
  }, 120_000);
});

describe('charges through proxyctl api', () => {
  it("enter the unit's customer and country: an extension of a tagged unit, a purchase with a tagged body", async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const made = await k.run(['units', 'create', '--pool', pool!.poolId, '--period', '24h', '--customer', 'acme', '--yes', '--json']);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const ref = (JSON.parse(String(made.stdout)) as { proxyRef: string }).proxyRef;
    const ext = await k.run(['api', '-X', 'POST', `/units/${ref}/extend`, '--yes', '--data', '{"period":"24h"}']);
    expect(ext.exitCode, String(ext.stderr)).toBe(0);
    const body = JSON.stringify({ poolId: pool!.poolId, period: '24h', description: 'customer=beta batch 7' });
    const bought = await k.run(['api', '-X', 'POST', '/units', '--yes', '--data', body]);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    const other = (JSON.parse(String(bought.stdout)) as { proxyRef: string }).proxyRef;

    const s = await k.state();
    const paid = (r: string) => cents(s.units.find((u) => u.proxyRef === r)!.pricePaid) / 100;
    expect(await spendOf<Group[]>(k, '--by', 'customer')).toEqual([
      { group: 'acme', count: 2, created: 1, extended: 1, totalUsd: paid(ref) },
      { group: 'beta', count: 1, created: 1, extended: 0, totalUsd: paid(other) },
    ]);
    const country = pool!.poolId.slice(0, 2).toUpperCase();
    expect(await spendOf<Group[]>(k, '--by', 'country')).toEqual([
      { group: country, count: 3, created: 2, extended: 1, totalUsd: (cents(paid(ref)) + cents(paid(other))) / 100 },
    ]);
    const entries = await spendOf<Entry[]>(k);
    expect(entries.find((e) => e.operation === 'extend')).toMatchObject({ ref, customer: 'acme', country, source: 'cli' });
  }, 120_000);
});

describe('tagging after purchase', () => {
  it('units bought untagged count for the customer they are given; a retag leaves past debits, later ones follow it', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const made = await k.run(['units', 'create', '--pool', pool!.poolId, '--period', '24h', '--count', '2', '--yes', '--json']);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const [a, b] = (JSON.parse(String(made.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef);
    const price = pool!.prices['24h']!;
    expect(await spendOf<Group[]>(k, '--by', 'customer')).toEqual([
      { group: '(none)', count: 2, created: 2, extended: 0, totalUsd: (cents(price) * 2) / 100 },
    ]);

    // Tagged by --customer (the unit's text kept) and by a whole new description naming the customer.
    expect((await k.run(['units', 'modify', a!, '--customer', 'beta'])).exitCode).toBe(0);
    expect((await k.run(['units', 'modify', b!, '--description', 'customer=beta second line'])).exitCode).toBe(0);
    expect(await spendOf<Group[]>(k, '--by', 'customer')).toEqual([
      { group: 'beta', count: 2, created: 2, extended: 0, totalUsd: (cents(price) * 2) / 100 },
    ]);

    // Retagged: what beta spent stays beta's; the next extension is gamma's.
    const retag = await k.run(['units', 'modify', a!, b!, '--customer', 'gamma']);
    expect(retag.exitCode, String(retag.stderr)).toBe(0);
    expect(await spendOf<Group[]>(k, '--by', 'customer')).toEqual([
      { group: 'beta', count: 2, created: 2, extended: 0, totalUsd: (cents(price) * 2) / 100 },
    ]);
    const ext = await k.run(['units', 'extend', a!, '--period', '24h', '--yes']);
    expect(ext.exitCode, String(ext.stderr)).toBe(0);
    expect(await spendOf<Group[]>(k, '--by', 'customer')).toEqual([
      { group: 'beta', count: 2, created: 2, extended: 0, totalUsd: (cents(price) * 2) / 100 },
      { group: 'gamma', count: 1, created: 0, extended: 1, totalUsd: price },
    ]);
    // Every debit is the sandbox's, once.
    const s = await k.state();
    const entries = await spendOf<Entry[]>(k);
    expect(entries.reduce((sum, e) => sum + cents(e.priceUsd), 0)).toBe(s.units.reduce((sum, u) => sum + cents(u.pricePaid), 0));
    const status = JSON.parse(String((await k.run(['status', '--json'])).stdout)) as { customers: unknown };
    expect(status.customers).toEqual([
      { customer: 'beta', activeUnits: 0, spentLast30DaysUsd: (cents(price) * 2) / 100 },
      { customer: 'gamma', activeUnits: 2, spentLast30DaysUsd: price },
    ]);
  }, 120_000);

  it("MCP modify_units tags the same way: a unit bought untagged counts for the agent's customer", async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const made = await k.run(['units', 'create', '--pool', pool!.poolId, '--period', '24h', '--description', 'spare', '--yes', '--json']);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const ref = (JSON.parse(String(made.stdout)) as { proxyRef: string }).proxyRef;
    const mcp = await startMcp(k, ['--allow-write']);
    try {
      expect(ok(await mcp.call('modify_units', { refs: [ref], customer: 'delta' }))).toMatchObject({ succeeded: 1 });
    } finally {
      await mcp.close();
    }
    expect((await k.api<{ description: string }>(`/units/${ref}`)).description).toBe('customer=delta spare');
    expect(await spendOf<Group[]>(k, '--by', 'customer')).toEqual([
      { group: 'delta', count: 1, created: 1, extended: 0, totalUsd: pool!.prices['24h'] },
    ]);
  }, 120_000);
});
