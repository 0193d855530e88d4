// Paying through the agent's tools, checked against what the sandbox debited: a quote charges
// nothing; paying it buys exactly what it said, once, however often it is paid; an expired quote,
// a changed price and a budget (the server's --budget, the profile's policy) are refused before
// anything is charged; every debit is in the ledger with source mcp.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, seedUnits, startKit } from '../helpers/index.js';
import { ok, startMcp, type McpSession } from './mcp-client.js';

let kit: Kit | undefined;
let mcp: McpSession | undefined;
afterEach(async () => {
  await mcp?.close();
  await kit?.close();
  mcp = undefined;
  kit = undefined;
});

/** A sandbox and `proxyctl mcp` with these flags (a function of the sandbox's prices where they decide). */
async function setup(args: string[] | ((prices: Record<string, number>) => string[]) = ['--allow-spend']) {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const [pool] = await pickPools(kit);
  mcp = await startMcp(kit, typeof args === 'function' ? args(pool!.prices) : args);
  return { k: kit, s: mcp, poolId: pool!.poolId, prices: pool!.prices };
}

type Entry = { ref: string; operation: string; priceUsd: number; source: string };

async function ledger(k: Kit): Promise<Entry[]> {
  const r = await k.run(['spend', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout)) as Entry[];
}

function refused(c: Awaited<ReturnType<McpSession['call']>>) {
  if (c.ok) throw new Error(`expected a refusal, got ${c.text}`);
  return c.error;
}

describe('quote, then pay exactly that quote once', () => {
  it('create: the quote charges nothing; paying buys what it said; paying it again replays and charges nothing', async () => {
    const { k, s, poolId, prices } = await setup();
    const price = prices['24h']!;
    const quote = ok(await s.call('quote_create', { pool: poolId, period: '24h', count: 2, customer: 'acme' }));
    expect(quote).toMatchObject({
      poolId,
      period: '24h',
      protocol: 'socks5',
      count: 2,
      unitPrice: price,
      balanceUsd: 1000,
      affordable: true,
      withinBudget: true,
      budget: 'no budget or policy is set',
    });
    expect(cents(quote.total as number)).toBe(cents(price) * 2);
    expect(cents(quote.balanceAfter as number)).toBe(cents(1000) - cents(price) * 2);
    expect(Date.parse(quote.expiresAt as string)).toBeGreaterThan(Date.now());
    let state = await k.state();
    expect(state.units).toHaveLength(0);
    expect(state.balanceUsd).toBe(1000);

    const paid = ok(await s.call('create_units', { quoteId: quote.quoteId }));
    expect(paid).toMatchObject({ quoteId: quote.quoteId, succeeded: 2, failed: 0, replayed: 0, notStarted: [] });
    expect(cents(paid.chargedUsd as number)).toBe(cents(price) * 2);
    state = await k.state();
    expect(state.units).toHaveLength(2);
    expect(cents(state.balanceUsd)).toBe(cents(1000) - cents(price) * 2);
    expect(paid.balanceUsd).toBe(state.balanceUsd);
    const refs = (paid.items as { proxyRef: string; description: string }[]).map((u) => u.proxyRef);
    expect(refs.sort()).toEqual(state.units.map((u) => u.proxyRef).sort());
    expect((paid.items as { description: string }[]).map((u) => u.description)).toEqual(['customer=acme', 'customer=acme']);

    // The same quote again: the same units, nothing bought, nothing charged.
    const again = ok(await s.call('create_units', { quoteId: quote.quoteId }));
    expect(again).toMatchObject({ succeeded: 2, replayed: 2, chargedUsd: 0 });
    expect((again.items as { proxyRef: string }[]).map((u) => u.proxyRef).sort()).toEqual(refs.sort());
    state = await k.state();
    expect(state.units).toHaveLength(2);
    expect(cents(state.balanceUsd)).toBe(cents(1000) - cents(price) * 2);

    const entries = await ledger(k);
    expect(entries.map((e) => [e.operation, e.source, cents(e.priceUsd)])).toEqual([
      ['create', 'mcp', cents(price)],
      ['create', 'mcp', cents(price)],
    ]);
  }, 60_000);

  it('extend: the quote charges nothing; paying extends each unit once; paying it again returns the same outcome', async () => {
    const { k, s, poolId, prices } = await setup();
    const bought = ok(
      await s.call('create_units', { quoteId: ok(await s.call('quote_create', { pool: poolId, period: '3h', count: 2 })).quoteId }),
    );
    const refs = (bought.items as { proxyRef: string }[]).map((u) => u.proxyRef);
    const before = await k.state();

    const quote = ok(await s.call('quote_extend', { refs: [...refs, refs[0]], period: '7d' }));
    expect(quote).toMatchObject({ refs, period: '7d', count: 2, unitPrice: prices['7d'], withinBudget: true });
    expect(cents(quote.total as number)).toBe(cents(prices['7d']!) * 2);
    expect((await k.state()).balanceUsd).toBe(before.balanceUsd);

    const paid = ok(await s.call('extend_units', { quoteId: quote.quoteId }));
    expect(paid).toMatchObject({ succeeded: 2, failed: 0, heldElsewhere: [] });
    expect(cents(paid.chargedUsd as number)).toBe(cents(prices['7d']!) * 2);
    expect(paid.replayed).toBe(false);
    // The same outcome again, but this call charged nothing: an agent adding up chargedUsd counts the charge once.
    const again = ok(await s.call('extend_units', { quoteId: quote.quoteId }));
    expect(again).toEqual({ ...paid, chargedUsd: 0, replayed: true });

    const after = await k.state();
    expect(cents(after.balanceUsd)).toBe(cents(before.balanceUsd) - cents(prices['7d']!) * 2);
    for (const u of after.units) {
      const was = before.units.find((b) => b.proxyRef === u.proxyRef)!;
      expect(Date.parse(u.expiresAt) - Date.parse(was.expiresAt), u.proxyRef).toBe(7 * 86_400_000);
    }
    const entries = await ledger(k);
    expect(entries.filter((e) => e.operation === 'extend').map((e) => [e.ref, e.source])).toEqual(
      expect.arrayContaining(refs.map((r) => [r, 'mcp'])),
    );
    expect(entries).toHaveLength(4);
  }, 60_000);
});

describe('renewal', () => {
  it('quote_extend selects the units due (expiringWithinHours), extend_units renews them once; then nothing is due', async () => {
    const { k, s, poolId, prices } = await setup();
    const bought = ok(
      await s.call('create_units', { quoteId: ok(await s.call('quote_create', { pool: poolId, period: '3h', count: 2 })).quoteId }),
    );
    const refs = (bought.items as { proxyRef: string }[]).map((u) => u.proxyRef);
    const quote = ok(await s.call('quote_extend', { expiringWithinHours: 24, period: '24h' }));
    expect(quote).toMatchObject({ refs, count: 2, unitPrice: prices['24h'] });
    expect(ok(await s.call('extend_units', { quoteId: quote.quoteId }))).toMatchObject({ succeeded: 2, failed: 0 });
    expect(refused(await s.call('quote_extend', { expiringWithinHours: 24, period: '24h' }))).toMatchObject({
      code: 'nothing_to_renew',
      exitCode: 5,
    });
    expect(refused(await s.call('quote_extend', { refs, expiringWithinHours: 24, period: '24h' }))).toMatchObject({ exitCode: 2 });
    for (const u of (await k.state()).units) expect(cents(u.pricePaid), u.proxyRef).toBe(cents(prices['3h']!) + cents(prices['24h']!));
  }, 60_000);
});

/** Resolves once the clock has passed `t` (epoch ms). */
async function untilPast(t: number): Promise<void> {
  while (Date.now() <= t) await new Promise((resolve) => setTimeout(resolve, t - Date.now() + 1));
}

describe('refused before anything is charged', () => {
  it('an expired quote (--quote-ttl 10, the shortest), for a purchase and an extension', async () => {
    const { k, s, poolId } = await setup(['--allow-spend', '--quote-ttl', '10']);
    const quote = ok(await s.call('quote_create', { pool: poolId, period: '24h' }));
    seedUnits(k, 1);
    const [unit] = (await k.state()).units;
    const extension = ok(await s.call('quote_extend', { refs: [unit!.proxyRef], period: '7d' }));
    // Paid once both quotes' expiry has passed on this machine's clock (the server's).
    await untilPast(Math.max(Date.parse(quote.expiresAt as string), Date.parse(extension.expiresAt as string)));
    expect(refused(await s.call('create_units', { quoteId: quote.quoteId }))).toMatchObject({ code: 'quote_expired', exitCode: 2 });
    expect(refused(await s.call('extend_units', { quoteId: extension.quoteId }))).toMatchObject({ code: 'quote_expired', exitCode: 2 });
    const state = await k.state();
    expect(state.units.map((u) => u.expiresAt)).toEqual([unit!.expiresAt]);
    expect(state.balanceUsd).toBe(1000);
    expect(refused(await s.call('create_units', { quoteId: '00000000-0000-4000-8000-000000000000' }))).toMatchObject({
      code: 'quote_not_found',
      exitCode: 5,
    });
  }, 60_000);

  it('a price changed since the quote (exit 8); a new quote at the new price is paid', async () => {
    const { k, s, poolId, prices } = await setup();
    const quote = ok(await s.call('quote_create', { pool: poolId, period: '24h' }));
    (k.sb.world.prices as Record<string, number>)['24h'] = prices['24h']! + 1;
    const r = refused(await s.call('create_units', { quoteId: quote.quoteId }));
    expect(r).toMatchObject({ code: 'price_changed', exitCode: 8 });
    expect((await k.state()).units).toHaveLength(0);
    const fresh = ok(await s.call('quote_create', { pool: poolId, period: '24h' }));
    expect(cents(fresh.unitPrice as number)).toBe(cents(prices['24h']! + 1));
    expect(ok(await s.call('create_units', { quoteId: fresh.quoteId }))).toMatchObject({ succeeded: 1 });
  });

  it("the server's --budget: a quote over it says so, paying it is exit 12; what was spent counts for the server's life", async () => {
    const { k, s, poolId, prices } = await setup((p) => ['--allow-spend', '--budget', (p['24h']! * 2).toFixed(2)]);
    const big = ok(await s.call('quote_create', { pool: poolId, period: '24h', count: 3 }));
    expect(big.withinBudget).toBe(false);
    expect(big.budget).toContain('--budget');
    expect(refused(await s.call('create_units', { quoteId: big.quoteId }))).toMatchObject({ code: 'budget_exceeded', exitCode: 12 });
    expect((await k.state()).units).toHaveLength(0);

    const two = ok(await s.call('quote_create', { pool: poolId, period: '24h', count: 2 }));
    expect(two).toMatchObject({ withinBudget: true, budget: "within this server's --budget" });
    expect(ok(await s.call('create_units', { quoteId: two.quoteId }))).toMatchObject({ succeeded: 2 });
    const one = ok(await s.call('quote_create', { pool: poolId, period: '24h' }));
    expect(one.withinBudget).toBe(false);
    expect(refused(await s.call('create_units', { quoteId: one.quoteId }))).toMatchObject({ code: 'budget_exceeded', exitCode: 12 });
    // Replaying what was bought is no new charge, so the spent budget does not stop it.
    expect(ok(await s.call('create_units', { quoteId: two.quoteId }))).toMatchObject({ replayed: 2, chargedUsd: 0 });
    const state = await k.state();
    expect(state.units).toHaveLength(2);
    expect(cents(state.balanceUsd)).toBe(cents(1000) - cents(prices['24h']!) * 2);
  }, 60_000);

  it("the profile's policy (config set max-spend-per-run): the quote's verdict, and exit 12 when paying", async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const [pool] = await pickPools(kit);
    const price = pool!.prices['24h']!;
    expect((await kit.run(['config', 'set', 'max-spend-per-run', price.toFixed(2)])).exitCode).toBe(0);
    mcp = await startMcp(kit, ['--allow-spend']);
    const q = ok(await mcp.call('quote_create', { pool: pool!.poolId, period: '24h', count: 2 }));
    expect(q.withinBudget).toBe(false);
    expect(q.budget).toContain('more than max-spend-per-run');
    expect(refused(await mcp.call('create_units', { quoteId: q.quoteId }))).toMatchObject({ code: 'budget_exceeded', exitCode: 12 });
    const state = await kit.state();
    expect(state.units).toHaveLength(0);
    expect(state.balanceUsd).toBe(1000);
  });
});
