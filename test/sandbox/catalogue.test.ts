// Spec §4.2 catalogue and §4.1 account snapshot and uptime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../../src/sandbox/catalogue.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { call, errorOf, startFastSandbox } from '../helpers/index.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startFastSandbox({ discountPercent: 20 });
});
afterAll(() => sb.close());

describe('catalogue', () => {
  it('prices are the list prices with the discount applied', async () => {
    const r = await call(sb, 'GET', '/prices');
    expect(r.body).toEqual({ prices: { '3h': 1.2, '12h': 2.4, '24h': 4, '7d': 20, '30d': 64 } });
  });

  it('at least 30 pools over 5+ countries, several providers, states and rotations, some unavailable, sorted', async () => {
    const r = await call(sb, 'GET', '/pools');
    const pools = r.body.data as Pool[];
    expect(r.body.prices).toEqual((await call(sb, 'GET', '/prices')).body.prices);
    expect(pools.length).toBeGreaterThanOrEqual(30);
    expect(new Set(pools.map((p) => p.country)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(pools.map((p) => p.provider)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(pools.map((p) => p.state)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(pools.map((p) => p.rotation)).size).toBeGreaterThanOrEqual(3);
    expect(pools.some((p) => !p.available)).toBe(true);
    expect(pools.map((p) => p.poolId)).toEqual(pools.map((p) => p.poolId).sort());
    for (const p of pools) expect(p.poolId).toMatch(/^[A-Z]{2}-\d+$/);
  });

  it('filters by provider, country, state, rotation', async () => {
    const all = (await call(sb, 'GET', '/pools')).body.data as Pool[];
    const us = (await call(sb, 'GET', '/pools?country=US')).body.data as Pool[];
    expect(us.length).toBe(all.filter((p) => p.country === 'US').length);
    const tx = (await call(sb, 'GET', '/pools?country=US&state=texas')).body.data as Pool[];
    expect(tx.length).toBeGreaterThan(0);
    expect(tx.every((p) => p.state === 'texas')).toBe(true);
    const kpn = (await call(sb, 'GET', '/pools?provider=KPN')).body.data as Pool[];
    expect(kpn.every((p) => p.provider === 'KPN')).toBe(true);
    const rot = all.find((p) => p.rotation)!.rotation!;
    expect(((await call(sb, 'GET', `/pools?rotation=${rot}`)).body.data as Pool[]).every((p) => p.rotation === rot)).toBe(true);
    expect((await call(sb, 'GET', '/pools?country=ZZ')).body.data).toEqual([]);
  });

  it('pool detail adds prices; an unknown pool is 404 pool_not_found', async () => {
    const r = await call(sb, 'GET', '/pools/US-11');
    expect(r.body).toMatchObject({ poolId: 'US-11', country: 'US', prices: { '3h': 1.2 } });
    const missing = await call(sb, 'GET', '/pools/US-99');
    expect(missing.status).toBe(404);
    expect(errorOf(missing)).toMatchObject({ code: 'pool_not_found', type: 'not_found_error' });
  });

  it('providers, countries and states carry pool counts that add up', async () => {
    const total = ((await call(sb, 'GET', '/pools')).body.data as Pool[]).length;
    const providers = (await call(sb, 'GET', '/providers')).body.data as { provider: string; poolCount: number }[];
    expect(providers.reduce((n, p) => n + p.poolCount, 0)).toBe(total);
    const countries = (await call(sb, 'GET', '/countries')).body.data as { country: string; name: string; poolCount: number }[];
    expect(countries.reduce((n, c) => n + c.poolCount, 0)).toBe(total);
    expect(countries.find((c) => c.country === 'US')).toMatchObject({ name: 'United States' });
    const states = (await call(sb, 'GET', '/states?country=US')).body.data as { country: string; state: string; poolCount: number }[];
    expect(states.every((s) => s.country === 'US')).toBe(true);
    const usPools = ((await call(sb, 'GET', '/pools?country=US')).body.data as Pool[]).length;
    expect(states.reduce((n, s) => n + s.poolCount, 0)).toBe(usPools);
    expect(((await call(sb, 'GET', '/states')).body.data as unknown[]).length).toBeGreaterThan(states.length);
  });
});

describe('account and uptime', () => {
  it('the snapshot has every field of §2.9', async () => {
    const r = await call(sb, 'GET', '/me');
    expect(r.body).toMatchObject({
      email: expect.any(String),
      balanceUsd: 1000,
      discountPercent: 20,
      resellerEnabled: true,
      units: { active: 0, total: 0 },
      prices: { '24h': 4 },
      webhook: { url: null, enabled: false },
    });
  });

  it('uptime scores each unit over its own lifetime inside the window, 288 slots a day', async () => {
    const a = (await call(sb, 'POST', '/units', { body: { poolId: 'US-11', period: '30d' } })).body;
    sb.advance(2 * 86400);
    const b = (await call(sb, 'POST', '/units', { body: { poolId: 'GB-11', period: '30d' } })).body;
    sb.advance(12 * 3600);
    const r = await call(sb, 'GET', '/me/uptime');
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.to) - Date.parse(r.body.from)).toBe(86400_000);
    expect(r.body).toMatchObject({ slotsPerDay: 288, units: expect.any(Array) });
    const ua = r.body.units.find((u: { proxyRef: string }) => u.proxyRef === a.proxyRef);
    const ub = r.body.units.find((u: { proxyRef: string }) => u.proxyRef === b.proxyRef);
    expect(ua.slotsUp + ua.slotsDown + ua.slotsExcluded).toBe(288);
    expect(ub.slotsUp + ub.slotsDown + ub.slotsExcluded).toBe(144);
    expect(ub.from).toBe(b.createdAt);
    expect(ua.uptimePercent).toBeGreaterThan(90);
    expect(ua.uptimePercent).toBeLessThanOrEqual(100);
    expect(r.body.slotsUp).toBe(ua.slotsUp + ub.slotsUp);
    const counted = r.body.slotsUp + r.body.slotsDown;
    expect(r.body.uptimePercent).toBeCloseTo((100 * r.body.slotsUp) / counted, 2);
    const week = (await call(sb, 'GET', '/me/uptime?day=3')).body;
    const wa = week.units.find((u: { proxyRef: string }) => u.proxyRef === a.proxyRef);
    expect(wa.slotsUp + wa.slotsDown + wa.slotsExcluded).toBe(2.5 * 288);
  });

  it('from/to win over day, to is clamped to now, bad values are refused', async () => {
    const now = Date.parse((await call(sb, 'GET', '/_sandbox/state')).body.now);
    const from = new Date(now - 3600_000).toISOString();
    const r = await call(sb, 'GET', `/me/uptime?day=5&from=${from}&to=${new Date(now + 86400_000).toISOString()}`);
    expect(r.body.from).toBe(from);
    expect(Date.parse(r.body.to)).toBeLessThanOrEqual(now + 5000);
    for (const q of ['day=0', 'day=31', 'from=yesterday', `from=${new Date(now + 1000).toISOString()}`]) {
      const bad = await call(sb, 'GET', `/me/uptime?${q}`);
      expect(bad.status, q).toBe(400);
      expect(errorOf(bad).code).toBe('validation_error');
    }
  });
});
