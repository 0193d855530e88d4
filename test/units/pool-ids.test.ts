// Pool ids and country codes as people type them: `--pool us-12` is US-12 (the spec's pool id is a
// country code, a hyphen and a number), and a pool or country the catalogue lacks is said with
// the nearest ids it has ("no pool US-21; did you mean US-12 or US-11?"), exit 5, nothing bought.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type Kit, proxyctl, startKit, startScriptedServer, tempHome } from '../helpers/index.js';

let kit: Kit;
let available: Set<string>;
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
  const pools = await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools');
  available = new Set(pools.data.filter((p) => p.available).map((p) => p.poolId));
  // The first pool of every country is always available (sandbox catalogue).
  expect(available.has('US-11') && available.has('GB-11')).toBe(true);
});
afterAll(() => kit.close());

const err = (r: { stderr: unknown }) => String(r.stderr);
/** A unit's lasting facts (expiresIn counts down between two reads). */
const facts = (u: { proxyRef: string; poolId: string; ip: string; port: number; expiresAt: string } | undefined) =>
  u && { proxyRef: u.proxyRef, poolId: u.poolId, ip: u.ip, port: u.port, expiresAt: u.expiresAt };

describe('pool ids are normalised before the request', () => {
  it('units create --pool " us-11 " buys on US-11', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'create', '--pool', ' us-11 ', '--period', '3h', '--json']);
    expect(err(r)).not.toContain('error');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ poolId: 'US-11' });
    expect((await kit.state()).units).toHaveLength(before.units.length + 1);
  });

  it('units list --pool us-11 and pools get us-12 find them; swap --pool gb-11 moves the unit', async () => {
    const list = await kit.run(['units', 'list', '--pool', 'us-11', '--json']);
    expect(list.exitCode).toBe(0);
    const [unit] = JSON.parse(String(list.stdout)) as { proxyRef: string; poolId: string }[];
    expect(unit).toMatchObject({ poolId: 'US-11' });
    const get = await kit.run(['pools', 'get', 'us-12', '--json']);
    expect(get.exitCode).toBe(0);
    expect(JSON.parse(String(get.stdout))).toMatchObject({ poolId: 'US-12' });
    const swap = await kit.run(['units', 'swap', unit!.proxyRef, '--pool', 'gb-11', '--json']);
    expect(swap.exitCode).toBe(0);
    expect((await kit.state()).units.find((u) => u.proxyRef === unit!.proxyRef)).toMatchObject({ poolId: 'GB-11' });
  });
});

describe('a pool or country the catalogue lacks: the nearest ids', () => {
  it('units create --pool US-21: exit 5, the nearest available pools, nothing bought', async () => {
    const before = await kit.state();
    const r = await kit.run(['units', 'create', '--pool', 'us-21', '--period', '3h', '--yes']);
    expect(r.exitCode).toBe(5);
    // US-12 (the same characters, swapped) first, then US-11; only pools that can be bought.
    const near = ['US-12', 'US-11'].filter((id) => available.has(id)).join(' or ');
    expect(err(r)).toContain(`no pool US-21; did you mean ${near}? (code pool_not_found, HTTP 404`);
    expect(err(r)).toContain('proxyctl pools --country US lists the pools in US');
    const after = await kit.state();
    expect(after.balanceUsd).toBe(before.balanceUsd);
    expect(after.units.map(facts)).toEqual(before.units.map(facts));
  });

  it('pools get US-21 and swap --pool US-21: exit 5 with the suggestion; an id far from all: no guess', async () => {
    const get = await kit.run(['pools', 'get', 'US-21']);
    expect(get.exitCode).toBe(5);
    expect(err(get)).toContain('no pool US-21; did you mean US-12 or US-11? (code pool_not_found');
    const [unit] = (await kit.state()).units;
    const swap = await kit.run(['units', 'swap', unit!.proxyRef, '--pool', 'US-21']);
    expect(swap.exitCode).toBe(5);
    expect(err(swap)).toContain('no pool US-21; did you mean');
    expect(facts((await kit.state()).units[0])).toEqual(facts(unit));
    const far = await kit.run(['pools', 'get', 'ZZ-999']);
    expect(far.exitCode).toBe(5);
    expect(err(far)).toContain('error: no pool ZZ-999 (code pool_not_found');
    expect(err(far)).toContain('proxyctl pools lists every pool');
  });

  it('an empty list for an unknown --pool or --country warns with the nearest (exit 0)', async () => {
    const units = await kit.run(['units', 'list', '--pool', 'US-21']);
    expect(units.exitCode).toBe(0);
    expect(err(units)).toContain('warning: no pool US-21; did you mean US-12 or US-11?');
    const pools = await kit.run(['pools', '--country', 'uk']);
    expect(pools.exitCode).toBe(0);
    expect(err(pools)).toContain('warning: no pools in UK; did you mean GB? (countries with pools: BR, CA, DE, FR, GB, NL, US)');
    const states = await kit.run(['states', '--country', 'xx']);
    expect(states.exitCode).toBe(0);
    expect(err(states)).toContain('warning: no pools in XX (countries with pools: BR, CA, DE, FR, GB, NL, US)');
    // A country that has pools: no warning.
    const us = await kit.run(['pools', '--country', ' us ']);
    expect(us.exitCode).toBe(0);
    expect(err(us)).toBe('');
  });

  it('when the catalogue cannot be read (GET /pools is Pro-only), the API error stands', async () => {
    const server = await startScriptedServer((req, res) => {
      if (req.url === '/api/reseller/v1/pools/US-21')
        return json(res, 404, { error: { type: 'not_found_error', code: 'pool_not_found', message: 'pool US-21 does not exist' } });
      json(res, 403, { error: { type: 'permission_error', code: 'pro_only', message: 'the pool list is for Pro accounts' } });
    });
    const home = tempHome();
    try {
      const r = await proxyctl(['pools', 'get', 'us-21'], { home, env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_x' } });
      expect(r.exitCode).toBe(5);
      expect(err(r)).toContain('error: pool US-21 does not exist (code pool_not_found');
      expect(server.requests.map((q) => q.url)).toEqual(['/api/reseller/v1/pools/US-21', '/api/reseller/v1/pools']);
    } finally {
      home.cleanup();
      await server.close();
    }
  });
});
