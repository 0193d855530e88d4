// Spec §4.3 units: create, list, get, modify, release, extend, swap, change-protocol, usage; and
// the money rules of §1 (debit first, automatic refund, no refund on release).
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { buy, call, errorOf, startFastSandbox, startWebhookSink } from '../helpers/index.js';

let sb: Sandbox;
const balance = async () => (await call(sb, 'GET', '/account')).body.balanceUsd as number;
const prices = async () => (await call(sb, 'GET', '/prices')).body.prices as Record<string, number>;

beforeAll(async () => {
  sb = await startFastSandbox({ failPool: 'DE-11' });
});
afterAll(() => sb.close());

describe('create (POST /units)', () => {
  it('returns 201 with an ACTIVE unit and debits exactly the shown price', async () => {
    const before = await balance();
    const p = await prices();
    const r = await buy(sb, { poolId: 'US-11', period: '7d' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      proxyRef: expect.stringMatching(/^PRX-\d+$/),
      poolId: 'US-11',
      status: 'ACTIVE',
      protocol: 'socks5',
      swapCount: 0,
      lastSwap: null,
      lastExtended: null,
    });
    expect(r.body.credentials).toEqual({ username: expect.any(String), password: expect.any(String) });
    expect(r.body.expiresIn).toBe(7 * 86400);
    expect(Date.parse(r.body.expiresAt) - Date.parse(r.body.createdAt)).toBe(7 * 86400 * 1000);
    expect(await balance()).toBeCloseTo(before - p['7d']!, 2);
  });

  it('validates the body: poolId, period, protocol, allowedIps', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ poolId: undefined }, 400, 'validation_error'],
      [{ period: '2d' }, 400, 'validation_error'],
      [{ protocol: 'ftp' }, 400, 'protocol_invalid'],
      [{ protocol: 'http_noauth' }, 400, 'allowed_ips_invalid'],
      [{ protocol: 'http_noauth', allowedIps: ['1.2.3.4', '5.6.7.8'] }, 400, 'allowed_ips_invalid'],
      [{ protocol: 'http_noauth', allowedIps: ['::1'] }, 400, 'allowed_ips_invalid'],
      [{ credentials: { username: 'a b', password: 'secret1' } }, 400, 'validation_error'],
      [{ poolId: 'XX-99' }, 404, 'pool_not_available'],
    ];
    const before = await balance();
    for (const [body, status, code] of cases) {
      const r = await buy(sb, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(errorOf(r).code).toBe(code);
    }
    expect(await balance()).toBe(before);
  });

  it('an unavailable pool is 404 pool_not_available', async () => {
    const pools = (await call(sb, 'GET', '/pools')).body.data as { poolId: string; available: boolean }[];
    const off = pools.find((p) => !p.available)!;
    const r = await buy(sb, { poolId: off.poolId });
    expect(r.status).toBe(404);
    expect(errorOf(r)).toMatchObject({ code: 'pool_not_available', type: 'not_found_error' });
  });

  it('inject is accepted as the no-auth protocol with exactly one IPv4', async () => {
    const r = await buy(sb, { protocol: 'inject', allowedIps: ['203.0.113.7'] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ protocol: 'http_noauth', credentials: null, allowedIps: ['203.0.113.7'] });
  });

  it('per-request credentials are used as given', async () => {
    const r = await buy(sb, { credentials: { username: 'alice01', password: 'pw-123456' } });
    expect(r.body.credentials).toEqual({ username: 'alice01', password: 'pw-123456' });
  });

  it('insufficient balance is 402 with required = the price, nothing debited', async () => {
    const p = await prices();
    await call(sb, 'POST', '/_sandbox/balance', { body: { balanceUsd: 10 } });
    const r = await buy(sb, { period: '30d' });
    expect(r.status).toBe(402);
    expect(errorOf(r)).toMatchObject({ code: 'insufficient_balance', type: 'insufficient_balance_error', required: p['30d'] });
    expect(await balance()).toBe(10);
    await call(sb, 'POST', '/_sandbox/balance', { body: { balanceUsd: 1000 } });
  });

  it('an engine failure is 503 upstream_unreachable and the debit is refunded', async () => {
    const before = await balance();
    const r = await buy(sb, { poolId: 'DE-11' });
    expect(r.status).toBe(503);
    expect(errorOf(r)).toMatchObject({ code: 'upstream_unreachable', type: 'service_error' });
    expect(await balance()).toBe(before);
    const units = (await call(sb, 'GET', '/_sandbox/state')).body.units as { poolId: string }[];
    expect(units.some((u) => u.poolId === 'DE-11')).toBe(false);
  });
});

describe('the fixed proxy username (PUT /me/proxy-username)', () => {
  it('applies to units created afterwards; per-request credentials win; null clears', async () => {
    const before = await buy(sb);
    const pin = await call(sb, 'PUT', '/me/proxy-username', { body: { proxyUsername: 'reseller7' } });
    expect(pin.status).toBe(200);
    expect(pin.body).toEqual({ proxyUsername: 'reseller7' });
    const a = await buy(sb);
    const b = await buy(sb);
    expect(a.body.credentials.username).toBe('reseller7');
    expect(b.body.credentials.username).toBe('reseller7');
    expect(a.body.credentials.password).not.toBe(b.body.credentials.password);
    const own = await buy(sb, { credentials: { username: 'custom1', password: 'pw-abcdef' } });
    expect(own.body.credentials.username).toBe('custom1');
    const old = await call(sb, 'GET', `/units/${before.body.proxyRef}`);
    expect(old.body.credentials.username).toBe(before.body.credentials.username);
    expect((await call(sb, 'PUT', '/me/proxy-username', { body: { proxyUsername: null } })).body).toEqual({ proxyUsername: null });
    expect((await buy(sb)).body.credentials.username).not.toBe('reseller7');
  });

  it.each([
    { proxyUsername: 'ab' },
    { proxyUsername: 'a'.repeat(33) },
    { proxyUsername: 'has space' },
    { proxyUsername: 'a:b' },
    { proxyUsername: 'a@b' },
    {},
  ])('rejects %j with 400', async (body) => {
    const r = await call(sb, 'PUT', '/me/proxy-username', { body });
    expect(r.status).toBe(400);
    expect(errorOf(r).code).toBe('validation_error');
  });
});

describe('list, get, expiry', () => {
  it('lists sorted by poolId, hides expired unless asked, filters and paginates', async () => {
    const s = await startFastSandbox();
    try {
      for (const [poolId, period] of [
        ['US-12', '3h'],
        ['GB-11', '24h'],
        ['US-11', '3h'],
        ['FR-11', '7d'],
        ['GB-11', '3h'],
      ] as const) {
        expect((await call(s, 'POST', '/units', { body: { poolId, period } })).status).toBe(201);
      }
      let r = await call(s, 'GET', '/units');
      expect(r.body.data.map((u: { poolId: string }) => u.poolId)).toEqual(['FR-11', 'GB-11', 'GB-11', 'US-11', 'US-12']);
      expect(r.body.pagination).toEqual({ page: 1, pageSize: 50, totalItems: 5, totalPages: 1, hasNext: false, hasPrev: false });
      r = await call(s, 'GET', '/units?pageSize=2&page=2');
      expect(r.body.data.map((u: { poolId: string }) => u.poolId)).toEqual(['GB-11', 'US-11']);
      expect(r.body.pagination).toEqual({ page: 2, pageSize: 2, totalItems: 5, totalPages: 3, hasNext: true, hasPrev: true });
      expect((await call(s, 'GET', '/units?poolId=GB-11')).body.data).toHaveLength(2);
      expect((await call(s, 'GET', '/units?expiringWithinHours=4')).body.data).toHaveLength(3);

      const first = (await call(s, 'GET', '/units?poolId=US-11')).body.data[0];
      s.advance(3600);
      const again = (await call(s, 'GET', `/units/${first.proxyRef}`)).body;
      expect(first.expiresIn - again.expiresIn).toBeGreaterThanOrEqual(3600);
      expect(first.expiresIn - again.expiresIn).toBeLessThan(3610);

      s.advance(3 * 3600);
      expect((await call(s, 'GET', `/units/${first.proxyRef}`)).body).toMatchObject({ status: 'EXPIRED', expiresIn: 0 });
      expect((await call(s, 'GET', '/units')).body.data.map((u: { poolId: string }) => u.poolId)).toEqual(['FR-11', 'GB-11']);
      expect((await call(s, 'GET', '/units?includeExpired=true')).body.data).toHaveLength(5);
      expect((await call(s, 'GET', '/units?status=EXPIRED')).body.data).toHaveLength(3);
      expect((await call(s, 'GET', '/me')).body.units).toEqual({ active: 2, total: 5 });
    } finally {
      await s.close();
    }
  });

  it.each(['page=0', 'pageSize=0', 'pageSize=201', 'expiringWithinHours=0', 'status=GONE', 'includeExpired=maybe', 'page=x'])(
    'rejects %s with 400',
    async (q) => {
      const r = await call(sb, 'GET', `/units?${q}`);
      expect(r.status).toBe(400);
      expect(errorOf(r).code).toBe('validation_error');
    },
  );

  it('an unknown unit is 404 unit_not_found', async () => {
    for (const [m, p] of [
      ['GET', '/units/PRX-0'],
      ['PATCH', '/units/PRX-0'],
      ['DELETE', '/units/PRX-0'],
      ['POST', '/units/PRX-0/extend'],
      ['POST', '/units/PRX-0/swap'],
      ['POST', '/units/PRX-0/change-protocol'],
      ['GET', '/units/PRX-0/usage'],
    ] as const) {
      const r = await call(sb, m, p, {
        body: m === 'GET' || m === 'DELETE' ? undefined : { period: '3h', newPoolId: 'US-11', newProtocol: 'http' },
      });
      expect(r.status, `${m} ${p}`).toBe(404);
      expect(errorOf(r)).toMatchObject({ code: 'unit_not_found', type: 'not_found_error' });
    }
  });
});

describe('lengths count characters (code points), as the schema does', () => {
  const emoji = (n: number) => '\u{1F600}'.repeat(n);
  // Its own sandbox: the file's shared one has a request budget to keep.
  let own: Sandbox;
  beforeAll(async () => {
    own = await startFastSandbox();
  });
  afterAll(() => own.close());

  it('the fixed proxy username: 3 to 32 characters', async () => {
    onTestFinished(async () => {
      await call(own, 'PUT', '/me/proxy-username', { body: { proxyUsername: null } });
    });
    for (const [n, status] of [
      [2, 400],
      [3, 200],
      [17, 200],
      [32, 200],
      [33, 400],
    ] as const) {
      const r = await call(own, 'PUT', '/me/proxy-username', { body: { proxyUsername: emoji(n) } });
      expect(r.status, `${n} emoji`).toBe(status);
    }
  });

  it('credentials: 1 to 64 characters; a description: at most 500, on create as on PATCH', async () => {
    const ok = await buy(own, { credentials: { username: emoji(64), password: emoji(64) }, description: emoji(500) });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ credentials: { username: emoji(64), password: emoji(64) }, description: emoji(500) });
    for (const body of [
      { credentials: { username: emoji(65), password: 'pw123456' } },
      { credentials: { username: 'user123', password: emoji(65) } },
      { description: emoji(501) },
    ]) {
      expect(errorOf(await buy(own, body)).code, JSON.stringify(body).slice(0, 60)).toBe('validation_error');
      expect(errorOf(await call(own, 'PATCH', `/units/${ok.body.proxyRef}`, { body })).code).toBe('validation_error');
    }
    expect((await call(own, 'PATCH', `/units/${ok.body.proxyRef}`, { body: { description: emoji(499) } })).body.modified).toBe(true);
  });
});

describe('modify, release', () => {
  it('PATCH answers modified: true exactly when unit.modified fires; an empty body modifies nothing', async () => {
    const rx = await startWebhookSink();
    onTestFinished(async () => {
      await call(sb, 'DELETE', '/webhook');
      await sb.deliveriesIdle();
      await rx.close();
    });
    await call(sb, 'PATCH', '/webhook', { body: { url: rx.url } });
    const u = (await buy(sb)).body;
    const modifiedEvents = () =>
      (sb.state().deliveries as { event: string; payload: string }[]).filter(
        (d) => d.event === 'unit.modified' && JSON.parse(d.payload).data.proxyRef === u.proxyRef,
      ).length;
    const patch = (o: { body?: unknown; rawBody?: string }) => call(sb, 'PATCH', `/units/${u.proxyRef}`, o);
    // Nothing to modify: an empty object, no body at all, only fields that name nothing.
    for (const o of [{ body: {} }, {}, { body: { credentials: null } }]) {
      const r = await patch(o);
      expect([r.status, r.body]).toEqual([200, { proxyRef: u.proxyRef, modified: false }]);
    }
    expect(modifiedEvents()).toBe(0);
    expect((await patch({ body: { description: 'shop #9' } })).body).toEqual({ proxyRef: u.proxyRef, modified: true });
    expect(modifiedEvents()).toBe(1);
    // The same values again: applied (a repeated modify is not a failure), so it fires too.
    expect((await patch({ body: { description: 'shop #9' } })).body).toEqual({ proxyRef: u.proxyRef, modified: true });
    expect(modifiedEvents()).toBe(2);
    // A refused PATCH applies none of its fields.
    const bad = await patch({ body: { credentials: { username: 'other1', password: 'pw123456' }, description: 'x'.repeat(501) } });
    expect(errorOf(bad).code).toBe('validation_error');
    expect((await call(sb, 'GET', `/units/${u.proxyRef}`)).body).toMatchObject({ credentials: u.credentials, description: 'shop #9' });
    expect(modifiedEvents()).toBe(2);
  });

  it('PATCH changes credentials and description, and answers modified: true for a valid no-op too', async () => {
    const u = (await buy(sb)).body;
    let r = await call(sb, 'PATCH', `/units/${u.proxyRef}`, {
      body: { description: 'shop #4', credentials: { username: 'newuser', password: 'newpass1' } },
    });
    expect(r.body).toEqual({ proxyRef: u.proxyRef, modified: true });
    const got = (await call(sb, 'GET', `/units/${u.proxyRef}`)).body;
    expect(got).toMatchObject({ description: 'shop #4', credentials: { username: 'newuser', password: 'newpass1' } });
    r = await call(sb, 'PATCH', `/units/${u.proxyRef}`, { body: { description: 'shop #4' } });
    expect(r.body).toEqual({ proxyRef: u.proxyRef, modified: true });
    r = await call(sb, 'PATCH', `/units/${u.proxyRef}`, { body: { allowedIps: ['1.2.3.4'] } });
    expect(errorOf(r).code).toBe('allowed_ips_invalid');
  });

  it('PATCH allowedIps replaces the list of an http_noauth unit', async () => {
    const u = (await buy(sb, { protocol: 'http_noauth', allowedIps: ['198.51.100.1'] })).body;
    const r = await call(sb, 'PATCH', `/units/${u.proxyRef}`, { body: { allowedIps: ['198.51.100.2', '198.51.100.3'] } });
    expect(r.body.modified).toBe(true);
    expect((await call(sb, 'GET', `/units/${u.proxyRef}`)).body.allowedIps).toEqual(['198.51.100.2', '198.51.100.3']);
    const bad = await call(sb, 'PATCH', `/units/${u.proxyRef}`, { body: { allowedIps: ['300.1.1.1'] } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe('allowed_ips_invalid');
  });

  it('DELETE releases with no refund; the unit is gone', async () => {
    const u = (await buy(sb)).body;
    const before = await balance();
    const r = await call(sb, 'DELETE', `/units/${u.proxyRef}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ proxyRef: u.proxyRef, removed: true });
    expect(await balance()).toBe(before);
    expect((await call(sb, 'GET', `/units/${u.proxyRef}`)).status).toBe(404);
    expect((await call(sb, 'DELETE', `/units/${u.proxyRef}`)).status).toBe(404);
    const released = (await call(sb, 'GET', '/units?status=RELEASED')).body.data as { proxyRef: string; status: string }[];
    expect(released.find((x) => x.proxyRef === u.proxyRef)?.status).toBe('RELEASED');
  });
});

describe('extend, swap, change-protocol, usage', () => {
  it('extend adds exactly one period and debits its price', async () => {
    const u = (await buy(sb, { period: '3h' })).body;
    const p = await prices();
    const before = await balance();
    const r = await call(sb, 'POST', `/units/${u.proxyRef}/extend`, { body: { period: '12h' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      proxyRef: u.proxyRef,
      expiresAt: new Date(Date.parse(u.expiresAt) + 12 * 3600_000).toISOString(),
      extended: true,
    });
    expect(await balance()).toBeCloseTo(before - p['12h']!, 2);
    expect((await call(sb, 'GET', `/units/${u.proxyRef}`)).body.lastExtended).not.toBeNull();
    const bad = await call(sb, 'POST', `/units/${u.proxyRef}/extend`, { body: {} });
    expect(errorOf(bad).code).toBe('validation_error');
  });

  it('extend on the failing pool is 503 upstream_unreachable, refunded, expiry unchanged', async () => {
    const u = (await buy(sb, { poolId: 'US-11', period: '3h' })).body;
    // Swap charges nothing and runs no engine, so a unit can reach the failing pool.
    expect((await call(sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'DE-11' } })).status).toBe(200);
    const before = await balance();
    const r = await call(sb, 'POST', `/units/${u.proxyRef}/extend`, { body: { period: '7d' } });
    expect(r.status).toBe(503);
    expect(errorOf(r)).toMatchObject({ code: 'upstream_unreachable', type: 'service_error' });
    expect(await balance()).toBe(before);
    expect((await call(sb, 'GET', `/units/${u.proxyRef}`)).body).toMatchObject({ expiresAt: u.expiresAt, lastExtended: null });
  });

  it('a failure rate of 1 fails every create and extend, each refunded in full', async () => {
    const s = await startFastSandbox({ failureRate: 1 });
    try {
      for (const period of ['3h', '30d']) {
        const r = await call(s, 'POST', '/units', { body: { poolId: 'US-11', period } });
        expect(r.status).toBe(503);
        expect(errorOf(r).code).toBe('upstream_unreachable');
      }
      expect((await call(s, 'GET', '/account')).body.balanceUsd).toBe(1000);
      expect((await call(s, 'GET', '/_sandbox/state')).body.units).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('a malformed %-escape in a proxyRef is a plain 404', async () => {
    const r = await call(sb, 'GET', '/units/PRX-%E0%A4%A');
    expect(r.status).toBe(404);
    expect(errorOf(r).code).toBe('unit_not_found');
  });

  it('extend beyond the balance is 402 with required', async () => {
    const u = (await buy(sb)).body;
    await call(sb, 'POST', '/_sandbox/balance', { body: { balanceUsd: 1 } });
    const r = await call(sb, 'POST', `/units/${u.proxyRef}/extend`, { body: { period: '30d' } });
    expect(r.status).toBe(402);
    expect(errorOf(r).required).toBe((await prices())['30d']);
    await call(sb, 'POST', '/_sandbox/balance', { body: { balanceUsd: 1000 } });
  });

  it('swap moves the unit, keeps its remaining time and charges nothing', async () => {
    const u = (await buy(sb, { poolId: 'US-11' })).body;
    const before = await balance();
    const r = await call(sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'GB-11' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      proxyRef: u.proxyRef,
      poolId: 'GB-11',
      protocol: 'socks5',
      credentials: u.credentials,
      expiresAt: u.expiresAt,
    });
    expect(Object.keys(r.body).sort()).toEqual(['credentials', 'expiresAt', 'ip', 'poolId', 'port', 'protocol', 'provider', 'proxyRef']);
    expect(await balance()).toBe(before);
    const got = (await call(sb, 'GET', `/units/${u.proxyRef}`)).body;
    expect(got).toMatchObject({ swapCount: 1, country: 'GB', poolId: 'GB-11' });
    expect(got.lastSwap).not.toBeNull();
    const unknown = await call(sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'ZZ-11' } });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('pool_not_found');
    expect(errorOf(await call(sb, 'POST', `/units/${u.proxyRef}/swap`, { body: {} })).code).toBe('validation_error');
  });

  it('change-protocol keeps proxyRef and remaining time, must differ, needs one IP for http_noauth', async () => {
    const u = (await buy(sb)).body;
    const same = await call(sb, 'POST', `/units/${u.proxyRef}/change-protocol`, { body: { newProtocol: 'socks5' } });
    expect(same.status).toBe(409);
    expect(errorOf(same)).toMatchObject({ code: 'protocol_unchanged' });
    const bad = await call(sb, 'POST', `/units/${u.proxyRef}/change-protocol`, { body: { newProtocol: 'smtp' } });
    expect(errorOf(bad).code).toBe('protocol_invalid');
    const noIp = await call(sb, 'POST', `/units/${u.proxyRef}/change-protocol`, { body: { newProtocol: 'http_noauth' } });
    expect(errorOf(noIp).code).toBe('allowed_ips_invalid');
    const two = await call(sb, 'POST', `/units/${u.proxyRef}/change-protocol`, {
      body: { newProtocol: 'http_noauth', allowedIps: ['1.1.1.1', '2.2.2.2'] },
    });
    expect(errorOf(two).code).toBe('allowed_ips_invalid');
    const r = await call(sb, 'POST', `/units/${u.proxyRef}/change-protocol`, {
      body: { newProtocol: 'http_noauth', allowedIps: ['1.1.1.1'] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      proxyRef: u.proxyRef,
      protocol: 'http_noauth',
      allowedIps: ['1.1.1.1'],
      expiresAt: u.expiresAt,
      poolId: u.poolId,
    });
    const back = await call(sb, 'POST', `/units/${u.proxyRef}/change-protocol`, { body: { newProtocol: 'http' } });
    expect(back.body).toMatchObject({ protocol: 'http', allowedIps: [], credentials: u.credentials });
  });

  it('usage: pool mode for short plans, daily mode for long ones', async () => {
    // Generated figures are the --no-proxies usage (with proxies, usage is the traffic carried).
    const sb = await startFastSandbox({ proxies: false });
    onTestFinished(() => sb.close());
    const short = (await buy(sb, { period: '12h' })).body;
    const long = (await buy(sb, { period: '30d' })).body;
    sb.advance(6 * 3600);
    const a = (await call(sb, 'GET', `/units/${short.proxyRef}/usage`)).body;
    expect(a).toMatchObject({ proxyRef: short.proxyRef, mode: 'pool', period: '12h', quotaMb: 3072 });
    expect(a.usedMb).toBeGreaterThan(0);
    expect(a.usedMb + a.remainingMb).toBeCloseTo(3072, 1);
    expect(a.totalMb).toBe(a.usedMb);
    const b = (await call(sb, 'GET', `/units/${long.proxyRef}/usage`)).body;
    expect(b).toMatchObject({ proxyRef: long.proxyRef, mode: 'daily', period: '30d', dailyLimitMb: 4096 });
    expect(b.todayMb + b.remainingMb).toBeCloseTo(4096, 1);
    expect(b.totalMb).toBeGreaterThanOrEqual(b.todayMb);
  });
});
