// `proxyctl api` never spends implicitly: gh's rule (fields or a body mean POST) must not reach an
// operation that charges (POST /units buys, POST /units/{ref}/extend extends). Inferred, it is exit 2
// before any request; written out (-X POST, or POST first), it is priced as `units create` /
// `units extend` price, checked against the balance and confirmed: asked in a terminal, --yes
// anywhere else. The scripted server proves nothing was sent; the sandbox, what was charged.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  answerPrompts,
  inTerminal,
  json,
  KEY,
  type Kit,
  pickPools,
  proxyctl,
  ran,
  type ScriptedServer,
  seedFleet,
  startKit,
  startScriptedServer,
  tempHome,
  waitForText,
} from '../helpers/index.js';

describe('a POST inferred from fields or a body never charges', () => {
  const home = tempHome();
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer((_req, res) => json(res, 200, { ok: true }));
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });
  const cli = (args: string[]) =>
    ran(proxyctl(args, { home, env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_charges_0000' } }));
  const body = join(home.dir, 'body.json');
  writeFileSync(body, '{"poolId":"US-12","period":"7d"}');

  it.each([
    [['api', '/units', '-f', 'poolId=US-12', '-f', 'period=7d'], '-f/-F fields make this a POST to /units', 'proxyctl units create'],
    [['api', 'units', '-F', 'poolId=US-12'], 'POST to /units, which buys a unit', 'proxyctl units create'],
    [['api', '/units/', '--data', '{"poolId":"US-12","period":"7d"}'], '--data make this a POST', 'proxyctl units create'],
    [['api', '/api/reseller/v1/units?x=1', '--input', body], '--input make this a POST', 'proxyctl units create'],
    [['api', '/units/PRX-1/extend', '-f', 'period=7d'], 'which extends PRX-1', 'proxyctl units extend PRX-1 --period P'],
    [['api', '/units/PRX-9/../PRX-1/Extend/', '-F', 'period=7d'], 'which extends PRX-1', 'proxyctl units extend PRX-1'],
  ])('%j: exit 2, nothing sent, says to write -X POST', async (args, what, instead) => {
    const before = server.requests.length;
    const r = await cli(args);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(what);
    expect(r.err).toContain('code charge_not_explicit');
    expect(r.err).toContain('write -X POST to mean it');
    expect(r.err).toContain(instead);
    expect(server.requests.length).toBe(before);
  });

  it.each([
    [['api', '-X', 'POST', '/units', '-f', 'poolId=US-12', '-f', 'period=7d'], 'refusing to send POST /units without confirmation'],
    [['api', 'post', '/units/PRX-1/extend', '-f', 'period=7d'], 'refusing to send POST /units/PRX-1/extend without confirmation'],
  ])('%j without a terminal or --yes: exit 2, nothing sent', async (args, message) => {
    const before = server.requests.length;
    const r = await cli(args);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain('add --yes to confirm');
    expect(server.requests.length).toBe(before);
  });
});

describe('against the sandbox', () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
  });
  const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });
  const posts = (k: Kit) => k.sb.requestLog().filter((q) => q.method === 'POST');

  it('fields without -X buy nothing: exit 2, no POST, balance unchanged; a swap by fields still goes', async () => {
    kit = await startKit({ balance: 100 });
    const [pool] = await pickPools(kit);
    const r = await ran(kit.run(['api', '/units', '-f', `poolId=${pool!.poolId}`, '-f', 'period=3h']));
    expect(r.code, r.err).toBe(2);
    expect(posts(kit)).toEqual([]);
    const state = await kit.state();
    expect(state.units).toEqual([]);
    expect(state.balanceUsd).toBe(100);
    // Fields still make a POST where nothing is charged: a swap goes through.
    const [ref] = seedFleet(kit, [{ hoursLeft: 5 }]);
    const [, other] = await pickPools(kit);
    const swapped = await ran(kit.run(['api', `/units/${ref}/swap`, '-f', `newPoolId=${other!.poolId}`]));
    expect(swapped.code, swapped.err).toBe(0);
    expect((await kit.state()).units[0]!.poolId).toBe(other!.poolId);
  });

  it('-X POST --yes: priced like units create, then bought; POST … /extend --yes: priced, then extended', async () => {
    kit = await startKit({ balance: 100 });
    const [pool] = await pickPools(kit);
    const price = pool!.prices['3h']!;
    const bought = await ran(kit.run(['api', '-X', 'POST', '/units', '-f', `poolId=${pool!.poolId}`, '-f', 'period=3h', '--yes']));
    expect(bought.code, bought.err).toBe(0);
    const after = (100 * 100 - Math.round(price * 100)) / 100;
    expect(bought.err).toContain(
      `1 × 3h unit in ${pool!.poolId}: ${price.toFixed(2)} USD; balance 100.00 USD → ${after.toFixed(2)} USD after purchase`,
    );
    const ref = (JSON.parse(bought.out) as { proxyRef: string }).proxyRef;
    let state = await kit.state();
    expect(state.units.map((u) => u.proxyRef)).toEqual([ref]);
    expect(state.balanceUsd).toBeCloseTo(after, 2);

    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const extended = await ran(kit.run(['api', 'POST', `/units/${ref}/extend`, '-F', 'period=24h', '--yes']));
    expect(extended.code, extended.err).toBe(0);
    expect(extended.err).toContain(`extending ${ref} by 24h: ${prices['24h']!.toFixed(2)} USD; balance ${after.toFixed(2)} USD →`);
    state = await kit.state();
    expect(state.units[0]!.lastExtended).not.toBeNull();
    expect(state.balanceUsd).toBeCloseTo(after - prices['24h']!, 2);
  });

  it('-X POST --yes that the balance cannot pay: exit 6 from the quote, no POST sent', async () => {
    kit = await startKit({ balance: 1 });
    const [pool] = await pickPools(kit);
    const r = await ran(kit.run(['api', '-X', 'POST', '/units', '-f', `poolId=${pool!.poolId}`, '-f', 'period=30d', '--yes']));
    expect(r.code, r.err).toBe(6);
    expect(r.err).toContain('missing; nothing was bought');
    expect(posts(kit)).toEqual([]);
    expect((await kit.state()).balanceUsd).toBe(1);
  });

  it('in a terminal: the quote, then "Extend for … ? (y/N)": wait is asked again, Enter alone extends nothing; y extends', {
    timeout: 120_000,
  }, async () => {
    kit = await startKit({ balance: 100 });
    const [ref] = seedFleet(kit, [{ hoursLeft: 5 }]);
    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const args = ['api', '-X', 'POST', `/units/${ref}/extend`, '-f', 'period=24h'];
    const t = inTerminal(kitEnv(kit), args, { columns: 100, rows: 30 });
    await waitForText(t, 'Extend for');
    expect(t.screen()).toContain(`extending ${ref} by 24h: ${prices['24h']!.toFixed(2)} USD`);
    expect(t.screen()).toMatch(/Extend for [\d.]+ USD\? \(y\/N\)/);
    const from = t.screen().length;
    t.key(`wait${KEY.enter}`);
    // The hint is drawn again once inquirer takes keys (it ignores them while validating).
    await waitForText(t, /answer y or n[\s\S]*answer y or n/, from);
    t.key(KEY.enter);
    expect((await t.child).exitCode, t.screen()).toBe(2);
    expect(t.screen()).toContain('nothing extended: the extension was not confirmed');
    expect(posts(kit)).toEqual([]);
    expect((await kit.state()).units[0]!.lastExtended).toBeNull();

    const again = inTerminal(kitEnv(kit), args, { columns: 100, rows: 30 });
    const r = await answerPrompts(again, [['Extend for', `y${KEY.enter}`]]);
    expect(r.exitCode, again.screen()).toBe(0);
    const state = await kit.state();
    expect(state.units[0]!.lastExtended).not.toBeNull();
    expect(state.balanceUsd).toBeCloseTo(100 - prices['24h']!, 2);
  });
});
