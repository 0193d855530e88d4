// Billing customers against the sandbox: units bought for several customers (creates and extends,
// an untagged unit, a unit retagged to another customer before its extension), priced by a markup,
// fixed prices per period and the profile's default markup, and every number that `customers`,
// `customers show` and `customers statement` (json and csv), `spend --by customer`, `status` and the
// MCP read tools print checked to the cent against what the sandbox charged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, inTerminal, type Kit, startKit } from '../helpers/index.js';
import { ok, startMcp } from '../mcp/mcp-client.js';

let kit: Kit;
const UTC = { env: { TZ: 'UTC' } };

type Row = {
  customer: string | null;
  activeUnits: number;
  nextExpiry: string | null;
  costUsd: number;
  billedUsd: number;
  marginUsd: number;
};
type Line = {
  at: string;
  ref: string;
  operation: string;
  poolId: string | null;
  period: string | null;
  costUsd: number;
  billedUsd: number;
};
type Statement = { customer: string; from: string; to: string; lines: Line[]; costUsd: number; billedUsd: number; marginUsd: number };

async function json<T>(...args: string[]): Promise<T> {
  const r = await kit.run([...args, '--json'], UTC);
  expect(r.exitCode, `${args.join(' ')}: ${String(r.stderr)}`).toBe(0);
  return JSON.parse(String(r.stdout)) as T;
}

async function buy(period: string, customer?: string, count = 1): Promise<string[]> {
  const args = ['units', 'create', '--pool', 'US-11', '--period', period, '--count', String(count), '--yes', '--json'];
  const made = await json<{ proxyRef: string } | { proxyRef: string }[]>(...args, ...(customer ? ['--customer', customer] : []));
  return (Array.isArray(made) ? made : [made]).map((u) => u.proxyRef);
}

async function extend(ref: string, period: string): Promise<void> {
  const r = await kit.run(['units', 'extend', ref, '--period', period, '--yes']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
}

/** Half a cent up, in cents: the rule the issue states (billed = cost × (1 + markup), to the cent per line). */
const markedUp = (costCents: number, percent: number) => Math.floor((costCents * (100 + percent) + 50) / 100);
const usd = (c: number) => c / 100;

// What was bought, in order; the sandbox's price list; who is billed how.
let acme: string[];
let globex: string;
let retagged: string;
let untagged: string;
let price: Record<string, number>;
/** Each debit the test made: ref, operation, period and the customer it belongs to. */
const debits: { ref: string; operation: 'create' | 'extend'; period: string; customer: string | null }[] = [];

beforeAll(async () => {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  price = (await kit.api<{ prices: Record<string, number> }>('/prices')).prices;
  acme = await buy('7d', 'acme', 2);
  globex = (await buy('24h', 'globex'))[0]!;
  retagged = (await buy('24h', 'beta'))[0]!;
  untagged = (await buy('3h'))[0]!;
  await extend(acme[0]!, '30d');
  await extend(globex, '24h');
  // Retagged before its extension: the purchase stays beta's, the extension is gamma's.
  expect((await kit.run(['units', 'modify', retagged, '--customer', 'gamma'])).exitCode).toBe(0);
  await extend(retagged, '24h');
  debits.push(
    { ref: acme[0]!, operation: 'create', period: '7d', customer: 'acme' },
    { ref: acme[1]!, operation: 'create', period: '7d', customer: 'acme' },
    { ref: globex, operation: 'create', period: '24h', customer: 'globex' },
    { ref: retagged, operation: 'create', period: '24h', customer: 'beta' },
    { ref: untagged, operation: 'create', period: '3h', customer: null },
    { ref: acme[0]!, operation: 'extend', period: '30d', customer: 'acme' },
    { ref: globex, operation: 'extend', period: '24h', customer: 'globex' },
    { ref: retagged, operation: 'extend', period: '24h', customer: 'gamma' },
  );
  // The sandbox's own record: what each unit was charged in all, and the debits above at its prices add up to it.
  const s = await kit.state();
  for (const u of s.units) {
    const mine = debits.filter((d) => d.ref === u.proxyRef);
    expect(cents(u.pricePaid), u.proxyRef).toBe(mine.reduce((sum, d) => sum + cents(price[d.period]!), 0));
  }
}, 120_000);
afterAll(() => kit.close());

/** The bill the rules give each debit with the prices set below (acme 30%, globex 24h=5 7d=20, default 12.5%). */
function billedCents(d: (typeof debits)[number], pricing: 'set' | 'acme-unset'): number {
  const cost = cents(price[d.period]!);
  if (d.customer === null) return 0;
  if (d.customer === 'acme') return pricing === 'set' ? markedUp(cost, 30) : markedUp(cost, 12.5);
  if (d.customer === 'globex') return d.period === '24h' ? 500 : d.period === '7d' ? 2000 : markedUp(cost, 12.5);
  return markedUp(cost, 12.5);
}

async function expiryOf(ref: string): Promise<string> {
  return new Date((await kit.state()).units.find((u) => u.proxyRef === ref)!.expiresAt).toISOString();
}

async function expectedRows(pricing: 'set' | 'acme-unset'): Promise<Row[]> {
  const row = async (customer: string | null, units: string[]): Promise<Row> => {
    const mine = debits.filter((d) => d.customer === customer);
    const cost = mine.reduce((s, d) => s + cents(price[d.period]!), 0);
    const billed = mine.reduce((s, d) => s + billedCents(d, pricing), 0);
    const expiries = await Promise.all(units.map(expiryOf));
    return {
      customer,
      activeUnits: units.length,
      nextExpiry: expiries.sort()[0] ?? null,
      costUsd: usd(cost),
      billedUsd: usd(billed),
      marginUsd: usd(billed - cost),
    };
  };
  return [
    await row('acme', acme),
    await row('beta', []),
    await row('gamma', [retagged]),
    await row('globex', [globex]),
    await row(null, [untagged]),
  ];
}

describe('customers, prices and statements', () => {
  it('prices: bad values are exit 2 and change nothing; good ones are stored with the profile', async () => {
    const config = join(kit.home.configDir, 'config.json');
    const set = await kit.run(['customers', 'set', 'acme', '--markup', '30%']);
    expect(set.exitCode, String(set.stderr)).toBe(0);
    const before = readFileSync(config, 'utf8');
    for (const bad of [
      ['acme', '--markup', 'abc'],
      ['acme', '--markup', '-5%'],
      ['globex', '--price', '90d=30'],
      ['globex', '--price', '7d=abc'],
      ['globex', '--price', '7d=20', '--markup', '1.234%'],
      ['acme'],
      ['not a name', '--markup', '5%'],
    ]) {
      const r = await kit.run(['customers', 'set', ...bad]);
      expect(r.exitCode, `${bad.join(' ')}: ${String(r.stderr)}`).toBe(2);
    }
    expect((await kit.run(['config', 'set', 'default-markup', 'abc'])).exitCode).toBe(2);
    expect(readFileSync(config, 'utf8')).toBe(before);

    for (const args of [
      ['customers', 'set', 'globex', '--price', '7d=20'],
      ['customers', 'set', 'globex', '--price', '24h=5'],
      ['config', 'set', 'default-markup', '12.5%'],
    ]) {
      const r = await kit.run(args);
      expect(r.exitCode, String(r.stderr)).toBe(0);
    }
    const profile = (JSON.parse(readFileSync(config, 'utf8')) as { profiles: Record<string, unknown> }).profiles.default;
    // Setting one price kept the other and acme's markup.
    expect(profile).toMatchObject({
      defaultMarkupPercent: 12.5,
      customerPrices: { acme: { markupPercent: 30 }, globex: { prices: { '7d': 20, '24h': 5 } } },
    });
    const got = await kit.run(['config', 'get', 'default-markup']);
    expect(String(got.stdout)).toBe('12.5%');
  });

  it('customers: one row per customer and the untagged row, every number the sandbox charged, billed by the prices', async () => {
    const rows = await json<Row[]>('customers');
    expect(rows).toEqual(await expectedRows('set'));
    // Exactly the contract's fields, in its order.
    for (const r of rows) expect(Object.keys(r)).toEqual(['customer', 'activeUnits', 'nextExpiry', 'costUsd', 'billedUsd', 'marginUsd']);
    // A window without the debits: units, no money.
    const old = await json<Row[]>('customers', '--month', '2020-01');
    expect(old.map((r) => [r.customer, r.activeUnits, r.costUsd, r.billedUsd])).toEqual([
      ['acme', 2, 0, 0],
      ['gamma', 1, 0, 0],
      ['globex', 1, 0, 0],
      [null, 1, 0, 0],
    ]);
    expect((await kit.run(['customers', '--month', '2026-13'])).exitCode).toBe(2);
    expect((await kit.run(['customers', '--month', '2026-11', '--since', '7d'])).exitCode).toBe(2);
  });

  it('statement: one line per debit of the customer, json and csv, totals the sums of the lines', async () => {
    // The month of the debits, as the ledger dated them (UTC); a run across a month's end checks the lines of that month.
    const entries = await json<{ at: string; ref: string; operation: string; period: string }[]>('spend');
    const month = entries[0]!.at.slice(0, 7);
    const inMonth = (ref: string, op: string) => entries.find((e) => e.ref === ref && e.operation === op)!.at.startsWith(month);

    for (const customer of ['acme', 'globex', 'beta', 'gamma']) {
      const mine = debits.filter((d) => d.customer === customer && inMonth(d.ref, d.operation));
      const st = await json<Statement>('customers', 'statement', customer, '--month', month);
      const [y, m] = month.split('-').map(Number);
      expect(st.from).toBe(new Date(Date.UTC(y!, m! - 1, 1)).toISOString());
      expect(st.to).toBe(new Date(Date.UTC(y!, m!, 1)).toISOString());
      expect(st.customer).toBe(customer);
      expect(st.lines.map(({ at: _at, ...l }) => l)).toEqual(
        mine
          .map((d) => ({
            ref: d.ref,
            operation: d.operation,
            poolId: 'US-11',
            period: d.period,
            costUsd: price[d.period],
            billedUsd: usd(billedCents(d, 'set')),
          }))
          .sort(
            (a, b) =>
              Date.parse(entries.find((e) => e.ref === a.ref && e.operation === a.operation)!.at) -
              Date.parse(entries.find((e) => e.ref === b.ref && e.operation === b.operation)!.at),
          ),
      );
      const cost = mine.reduce((s, d) => s + cents(price[d.period]!), 0);
      const billed = mine.reduce((s, d) => s + billedCents(d, 'set'), 0);
      expect([st.costUsd, st.billedUsd, st.marginUsd]).toEqual([usd(cost), usd(billed), usd(billed - cost)]);

      const csv = await kit.run(['customers', 'statement', customer, '--month', month, '-o', 'csv'], UTC);
      expect(csv.exitCode, String(csv.stderr)).toBe(0);
      expect(String(csv.stdout)).toBe(
        [
          'at,ref,operation,poolId,period,costUsd,billedUsd',
          ...st.lines.map((l) => [l.at, l.ref, l.operation, l.poolId, l.period, l.costUsd, l.billedUsd].join(',')),
        ].join('\n'),
      );
      expect(String(csv.stderr)).toContain(`cost ${usd(cost).toFixed(2)} USD, billed ${usd(billed).toFixed(2)} USD`);
    }

    // --all: every customer's lines in one csv with a customer column; the untagged debit on none, and said.
    const all = await kit.run(['customers', 'statement', '--all', '--month', month, '-o', 'csv'], UTC);
    expect(all.exitCode, String(all.stderr)).toBe(0);
    const rows = String(all.stdout).trim().split('\n');
    expect(rows[0]).toBe('customer,at,ref,operation,poolId,period,costUsd,billedUsd');
    const body = rows.slice(1).map((r) => r.split(','));
    expect(body.map((r) => r[0])).toEqual(
      ['acme', 'beta', 'gamma', 'globex'].flatMap((c) =>
        debits.filter((d) => d.customer === c && inMonth(d.ref, d.operation)).map(() => c),
      ),
    );
    expect(body.reduce((s, r) => s + cents(Number(r[6])), 0)).toBe(
      debits.filter((d) => d.customer !== null && inMonth(d.ref, d.operation)).reduce((s, d) => s + cents(price[d.period]!), 0),
    );
    if (inMonth(untagged, 'create')) expect(String(all.stderr)).toContain('1 debit(s)');
    const allJson = await json<Statement[]>('customers', 'statement', '--all', '--month', month);
    expect(allJson.map((s) => s.customer)).toEqual(
      ['acme', 'beta', 'gamma', 'globex'].filter((c) => allJson.some((s) => s.customer === c)),
    );
    expect(allJson.find((s) => s.customer === 'acme')).toEqual(await json<Statement>('customers', 'statement', 'acme', '--month', month));

    const unknown = await kit.run(['customers', 'statement', 'nobody', '--month', month]);
    expect(unknown.exitCode).toBe(5);
    expect((await kit.run(['customers', 'statement', '--month', month])).exitCode).toBe(2);
  });

  it('show: the units, the spend, and what renewing what is due within 7 days costs and bills', async () => {
    type Detail = Row & {
      units: { proxyRef: string }[];
      renewal: {
        units: { ref: string; period: string; periodFrom: string; costUsd: number; billedUsd: number }[];
        costUsd: number;
        billedUsd: number;
        marginUsd: number;
      };
    };
    const d = await json<Detail>('customers', 'show', 'acme');
    const [row] = await expectedRows('set');
    expect({ ...d, units: undefined, renewal: undefined }).toMatchObject({ ...row, units: undefined, renewal: undefined });
    expect(d.units.map((u) => u.proxyRef).sort()).toEqual([...acme].sort());
    // acme[0] was extended by 30 days; acme[1] (7d) is due, renewed for its own period at the price list's price.
    const cost = cents(price['7d']!);
    expect(d.renewal).toMatchObject({
      units: [{ ref: acme[1], period: '7d', periodFrom: 'ledger', costUsd: usd(cost), billedUsd: usd(markedUp(cost, 30)) }],
      costUsd: usd(cost),
      billedUsd: usd(markedUp(cost, 30)),
      marginUsd: usd(markedUp(cost, 30) - cost),
    });
    // globex's unit is due, billed at its fixed 24h price.
    const g = await json<Detail>('customers', 'show', 'globex');
    expect(g.renewal).toMatchObject({ units: [{ ref: globex, period: '24h' }], costUsd: price['24h'], billedUsd: 5 });

    const conn = await kit.run(['customers', 'show', 'acme', '--conn-format', '{ref} {ip}:{port}']);
    expect(conn.exitCode, String(conn.stderr)).toBe(0);
    const s = await kit.state();
    expect(String(conn.stdout).trim().split('\n').sort()).toEqual(
      acme
        .map((ref) => {
          const u = s.units.find((x) => x.proxyRef === ref)!;
          return `${ref} ${u.ip}:${u.port}`;
        })
        .sort(),
    );
    // beta has spend but no units now; a name with neither is exit 5.
    expect((await json<Detail>('customers', 'show', 'beta')).units).toEqual([]);
    expect((await kit.run(['customers', 'show', 'nobody'])).exitCode).toBe(5);
  });

  it('spend --by customer and status add billed and margin; the MCP tools give the same numbers', async () => {
    const rows = await expectedRows('set');
    const groups = await json<{ group: string; totalUsd: number; billedUsd: number; marginUsd: number }[]>('spend', '--by', 'customer');
    expect(groups.map((g) => [g.group, g.totalUsd, g.billedUsd, g.marginUsd])).toEqual(
      rows.map((r) => [r.customer ?? '(none)', r.costUsd, r.billedUsd, r.marginUsd]),
    );
    const status = await json<{ customers: { customer: string; marginLast30DaysUsd: number; billedLast30DaysUsd: number }[] }>('status');
    for (const r of rows.filter((x) => x.customer !== null)) {
      expect(status.customers.find((c) => c.customer === r.customer)).toMatchObject({
        billedLast30DaysUsd: r.billedUsd,
        marginLast30DaysUsd: r.marginUsd,
      });
    }

    const mcp = await startMcp(kit, [], { TZ: 'UTC' });
    try {
      expect((ok(await mcp.call('list_customers', {})) as { customers: Row[] }).customers).toEqual(await json<Row[]>('customers'));
      const month = (await json<{ at: string }[]>('spend'))[0]!.at.slice(0, 7);
      expect(ok(await mcp.call('get_statement', { customer: 'acme', month }))).toEqual(
        await json<Statement>('customers', 'statement', 'acme', '--month', month),
      );
      const unknown = await mcp.call('get_statement', { customer: 'nobody' });
      expect(unknown.ok).toBe(false);
      if (!unknown.ok) expect(unknown.error.exitCode).toBe(5);
    } finally {
      await mcp.close();
    }
  }, 60_000);

  it('unset: the customer falls back to the default markup', async () => {
    expect((await kit.run(['customers', 'unset', 'acme'])).exitCode).toBe(0);
    expect(await json<Row[]>('customers')).toEqual(await expectedRows('acme-unset'));
    expect((await kit.run(['customers', 'set', 'acme', '--markup', '30%'])).exitCode).toBe(0);
  });

  it('tables fit 80 columns and keep the customer and money columns', async () => {
    const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, TZ: 'UTC' };
    for (const [args, keep] of [
      [['customers'], ['customer', 'cost', 'billed', 'margin']],
      [
        ['customers', 'statement', '--all'],
        ['customer', 'cost', 'billed'],
      ],
      [
        ['spend', '--by', 'customer'],
        ['Customer', 'Total', 'Billed', 'Margin'],
      ],
    ] as const) {
      const t = inTerminal(env, [...args], { columns: 80 });
      expect((await t.child).exitCode, t.screen()).toBe(0);
      const lines = stripVTControlCharacters(t.screen()).split(/\r?\n/);
      // The table's lines (notices on stderr are the terminal's to wrap).
      for (const line of lines.filter((l) => /^[┌│├└]/.test(l))) expect(line.length, t.screen()).toBeLessThanOrEqual(80);
      const head = lines.find((l) => l.startsWith('│') && keep.every((h) => l.includes(` ${h} `)));
      expect(head, t.screen()).toBeDefined();
      // Every customer's name and money is on screen whole.
      expect(t.screen()).toContain('globex');
      expect(t.screen()).toContain(` ${price['24h']!.toFixed(2)} USD`);
    }
    // status: the margin per customer on a line of its own, the one that spent most first.
    const [acmeRow] = await expectedRows('set');
    const st = inTerminal(env, ['status'], { columns: 80 });
    expect((await st.child).exitCode, st.screen()).toBe(0);
    expect(stripVTControlCharacters(st.screen())).toContain(
      `Margin    billed less cost in 30 days: acme ${acmeRow!.marginUsd.toFixed(2)} USD`,
    );
  }, 60_000);
  it('a customer whose units were bought elsewhere: a row with no money, an empty statement, no exit 5', async () => {
    // Bought straight from the API, so the ledger never saw it.
    const r = await fetch(`${kit.sb.baseUrl}/api/reseller/v1/units`, {
      method: 'POST',
      headers: { 'x-api-key': kit.sb.apiKey, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ poolId: 'US-11', period: '24h', description: 'customer=delta' }),
    });
    expect(r.status).toBe(201);
    const ref = ((await r.json()) as { proxyRef: string }).proxyRef;
    const rows = await json<Row[]>('customers');
    expect(rows.find((x) => x.customer === 'delta')).toEqual({
      customer: 'delta',
      activeUnits: 1,
      nextExpiry: await expiryOf(ref),
      costUsd: 0,
      billedUsd: 0,
      marginUsd: 0,
    });
    const st = await json<Statement>('customers', 'statement', 'delta');
    expect([st.lines, st.costUsd, st.billedUsd, st.marginUsd]).toEqual([[], 0, 0, 0]);
    expect((await json<{ units: { proxyRef: string }[] }>('customers', 'show', 'delta')).units.map((u) => u.proxyRef)).toEqual([ref]);
  });
});
