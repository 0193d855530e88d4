// The agent on a team's shared ledger (issue 37): `proxyctl mcp` on one machine and the CLI on
// another, one account, one PostgreSQL database. The team's daily budget, set once on the CLI's
// machine, is the agent's too: both count each other's debits at the moment they charge, so the
// second purchase past it is refused on either side (the tool's error with exit code 12, the CLI's
// exit 12) with nothing charged; each debit is in `spend` once on both machines, with its source;
// what create_units says it charged is what the sandbox's balance moved by; and customer prices set
// for the team on the CLI's machine bill the agent's next answer.
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
import { type Called, type McpSession, ok, startMcp } from './mcp-client.js';

const missing = postgresMissing();
let db: Postgres | undefined;
let kit: Kit | undefined;
let mcp: McpSession | undefined;

beforeAll(async () => {
  if (!missing) db = await startPostgres();
}, 120_000);
afterAll(async () => {
  await db?.close();
});
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
  await kit?.close();
  kit = undefined;
  cleanupMachines();
});

function refused(c: Called) {
  if (c.ok) throw new Error(`expected a refusal, got ${c.text}`);
  return c.error;
}

type Debit = { id: string; ref: string; operation: string; priceUsd: number; source: string };

const spendOf = async (run: Machine['run']) =>
  (JSON.parse(String((await succeeds(run(['spend', '--json']))).stdout)) as Debit[])
    .map((e) => [e.id, e.source, cents(e.priceUsd)] as const)
    .sort();

describe.skipIf(missing !== undefined)(needing('the agent and the CLI on two machines sharing a ledger in PostgreSQL', missing), () => {
  it("the team's daily budget holds across the agent's create_units on one machine and units create on another; each debit once on both", async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const poolId = pool!.poolId;
    const price = pool!.prices['24h']!;
    const url = await db!.createDatabase(`team_mcp_${process.pid}`);
    // Machine a (the kit's home) stores the URL and runs the agent; machine b takes it from its environment.
    const a: Machine['run'] = (args) => k.run(args);
    await succeeds(a(['config', 'set', 'ledger-url', url]));
    const b = machine(k, { PROXYCTL_LEDGER_URL: url });
    await succeeds(b.run(['config', 'set', 'max-spend-per-day', (price * 2).toFixed(2)]));
    mcp = await startMcp(k, ['--allow-spend']);

    // The agent sees the team's budget (a's own profile has none) and buys one unit within it.
    const q1 = ok(await mcp.call('quote_create', { pool: poolId, period: '24h', count: 1, customer: 'acme' }));
    expect(q1).toMatchObject({ withinBudget: true, budget: 'within the budget and policy' });
    const before = (await k.state()).balanceUsd;
    const paid = ok(await mcp.call('create_units', { quoteId: q1.quoteId }));
    expect(paid).toMatchObject({ succeeded: 1, failed: 0, replayed: 0 });
    const afterAgent = await k.state();
    expect(cents(paid.chargedUsd as number)).toBe(cents(before) - cents(afterAgent.balanceUsd));
    expect(cents(paid.chargedUsd as number)).toBe(cents(price));
    // Its hold ended with the call, though its server runs on: no machine sees it.
    expect(JSON.parse(String((await succeeds(b.run(['spend', 'holds', '--json']))).stdout))).toEqual([]);

    // A second quote while one more unit still fits; then b's CLI spends the rest of the day.
    const q2 = ok(await mcp.call('quote_create', { pool: poolId, period: '24h', count: 1 }));
    expect(q2).toMatchObject({ withinBudget: true });
    await succeeds(b.run(['units', 'create', '--pool', poolId, '--period', '24h', '--json']));
    const afterCli = await k.state();
    expect(afterCli.units).toHaveLength(2);

    // Paying the quote now would pass the team's budget: refused, nothing charged.
    expect(refused(await mcp.call('create_units', { quoteId: q2.quoteId }))).toMatchObject({ code: 'budget_exceeded', exitCode: 12 });
    const q3 = ok(await mcp.call('quote_create', { pool: poolId, period: '24h', count: 1 }));
    expect(q3).toMatchObject({ withinBudget: false });
    // And b's CLI counts the agent's debit: one more is refused there too.
    const over = await b.run(['units', 'create', '--pool', poolId, '--period', '24h']);
    expect(over.exitCode, String(over.stderr)).toBe(12);
    expect(String(over.stderr)).toContain('nothing was charged');
    const s = await k.state();
    expect(s.units).toHaveLength(2);
    expect(s.balanceUsd).toBe(afterCli.balanceUsd);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 2);

    // Each debit once, with the door it came through, the same on both machines and in the sandbox.
    const agentRef = (paid.items as { proxyRef: string }[])[0]!.proxyRef;
    const sandbox = s.units
      .map((u) => [`create:${u.proxyRef}`, u.proxyRef === agentRef ? 'mcp' : 'cli', cents(u.pricePaid)] as const)
      .sort();
    expect(await spendOf(a)).toEqual(sandbox);
    expect(await spendOf(b.run)).toEqual(sandbox);
    // The agent's own spend tool reads the same ledger.
    const spend = ok(await mcp.call('get_spend', {}));
    expect(cents(spend.totalUsd as number)).toBe(cents(price) * 2);
    // Prices b sets for the team while the agent's server runs bill its next answer.
    await succeeds(b.run(['customers', 'set', 'acme', '--markup', '50%']));
    const customers = ok(await mcp.call('list_customers', {})).customers as { customer: string | null; billedUsd: number }[];
    expect(cents(customers.find((c) => c.customer === 'acme')!.billedUsd)).toBe(Math.round(cents(price) * 1.5));
  }, 120_000);

  it('the agent and the CLI buying the last of the budget at the same moment: exactly one is charged', async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const k = kit;
    const [pool] = await pickPools(k);
    const poolId = pool!.poolId;
    const price = pool!.prices['24h']!;
    const url = await db!.createDatabase(`team_mcp_race_${process.pid}`);
    await succeeds(k.run(['config', 'set', 'ledger-url', url]));
    const b = machine(k, { PROXYCTL_LEDGER_URL: url });
    await succeeds(b.run(['config', 'set', 'max-spend-per-day', price.toFixed(2)]));
    mcp = await startMcp(k, ['--allow-spend']);
    const q = ok(await mcp.call('quote_create', { pool: poolId, period: '24h', count: 1 }));
    expect(q).toMatchObject({ withinBudget: true });

    const [agent, cli] = await Promise.all([
      mcp.call('create_units', { quoteId: q.quoteId }),
      b.run(['units', 'create', '--pool', poolId, '--period', '24h', '--json']),
    ]);
    // One of them, whichever took the team's budget hold first; the other is refused, charging nothing.
    if (agent.ok) {
      expect(cli.exitCode, String(cli.stderr)).toBe(12);
      expect(cents(agent.value.chargedUsd as number)).toBe(cents(price));
    } else {
      expect(agent.error).toMatchObject({ code: 'budget_exceeded', exitCode: 12 });
      expect(cli.exitCode, String(cli.stderr)).toBe(0);
    }
    const s = await k.state();
    expect(s.units).toHaveLength(1);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price));
    const sandbox = [[`create:${s.units[0]!.proxyRef}`, agent.ok ? 'mcp' : 'cli', cents(price)] as const];
    expect(await spendOf((args) => k.run(args))).toEqual(sandbox);
    expect(await spendOf(b.run)).toEqual(sandbox);
  }, 120_000);
});
