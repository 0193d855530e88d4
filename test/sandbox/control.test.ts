// The sandbox-only control endpoint: operator events, faults, the clock, the state dump.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { buy, call, errorOf, pollUntil, startFastSandbox, startWebhookSink, type WebhookSink } from '../helpers/index.js';

let sb: Sandbox;
let rx: WebhookSink;
beforeAll(async () => {
  sb = await startFastSandbox();
  rx = await startWebhookSink();
  await call(sb, 'PATCH', '/webhook', { body: { url: rx.url } });
});
afterAll(async () => {
  await sb.close();
  await rx.close();
});

async function fire(body: Record<string, unknown>) {
  const n = rx.received.length;
  const r = await call(sb, 'POST', '/_sandbox/trigger', { body });
  expect(r.status, r.text).toBe(202);
  const id = r.body.deliveries[0]?.eventId as string;
  const mine = () =>
    rx.received
      .slice(n)
      .map((x) => JSON.parse(x.raw) as { id: string; event: string; data: Record<string, unknown> })
      .find((p) => p.id === id);
  await pollUntil(() => mine() !== undefined);
  return { reply: r.body, payload: mine()! };
}

describe('operator events through /_sandbox/trigger', () => {
  it('unit.down carries proxyRef and reason', async () => {
    const u = (await buy(sb)).body;
    const { reply, payload } = await fire({ event: 'unit.down', proxyRef: u.proxyRef, reason: 'quota_exceeded' });
    expect(reply.deliveries).toHaveLength(1);
    expect(reply.deliveries[0]).toMatchObject({ event: 'unit.down', status: 'PENDING' });
    expect(payload).toMatchObject({ event: 'unit.down', data: { proxyRef: u.proxyRef, reason: 'quota_exceeded' } });
  });

  it('usage.warning: kind throttle at 80%, delete at 75%', async () => {
    const u = (await buy(sb, { period: '7d' })).body;
    const a = await fire({ event: 'usage.warning', proxyRef: u.proxyRef });
    expect(a.payload.data).toEqual({ proxyRef: u.proxyRef, kind: 'throttle', thresholdPct: 80, consumedMb: 3276.8, limitMb: 4096 });
    const b = await fire({ event: 'usage.warning', proxyRef: u.proxyRef, kind: 'delete' });
    expect(b.payload.data).toMatchObject({ kind: 'delete', thresholdPct: 75, consumedMb: 3072 });
  });

  it('usage.throttled carries its fields', async () => {
    const u = (await buy(sb, { period: '3h' })).body;
    const { payload } = await fire({ event: 'usage.throttled', proxyRef: u.proxyRef, throttleSpeedMbps: 2 });
    expect(payload.data).toEqual({ proxyRef: u.proxyRef, throttleSpeedMbps: 2, durationHours: 24, consumedMb: 1024, limitMb: 1024 });
  });

  it('server.down lists the affected units; server.ip_changed moves them to the new IP', async () => {
    const u = (await buy(sb, { poolId: 'NL-11' })).body;
    const down = await fire({ event: 'server.down', poolId: 'NL-11', reason: 'maintenance' });
    expect(down.payload.data).toEqual({
      poolCode: 'NL-11',
      reason: 'maintenance',
      affectedUnits: [{ proxyRef: u.proxyRef, ip: u.ip, port: u.port }],
    });
    const moved = await fire({ event: 'server.ip_changed', poolId: 'NL-11', newIp: '127.203.0.99' });
    expect(moved.payload.data).toEqual({
      poolCode: 'NL-11',
      newIp: '127.203.0.99',
      oldIp: u.ip,
      affectedUnits: [{ proxyRef: u.proxyRef, ip: '127.203.0.99', port: u.port }],
    });
    expect((await call(sb, 'GET', `/units/${u.proxyRef}`)).body.ip).toBe('127.203.0.99');
  });

  it('rejects unknown events and missing units or pools', async () => {
    expect(errorOf(await call(sb, 'POST', '/_sandbox/trigger', { body: { event: 'unit.exploded' } })).code).toBe('validation_error');
    expect((await call(sb, 'POST', '/_sandbox/trigger', { body: { event: 'unit.down', proxyRef: 'PRX-999999' } })).status).toBe(404);
    expect(errorOf(await call(sb, 'POST', '/_sandbox/trigger', { body: { event: 'server.down', poolId: 'XX-1' } })).code).toBe(
      'pool_not_found',
    );
  });

  it('requires the main key', async () => {
    expect((await call(sb, 'GET', '/_sandbox/state', { key: null })).status).toBe(401);
    expect((await call(sb, 'GET', '/_sandbox/state', { key: sb.disabledApiKey })).status).toBe(401);
  });
});

describe('faults', () => {
  it('failNext answers the next N matching requests with the status, then normal service resumes', async () => {
    const set = await call(sb, 'POST', '/_sandbox/faults', { body: { failNext: { op: 'create', status: 502, count: 2 } } });
    expect(set.body.failNext).toMatchObject({ op: 'create', status: 502, count: 2 });
    expect((await call(sb, 'GET', '/prices')).status).toBe(200);
    const a = await buy(sb);
    expect(a.status).toBe(502);
    expect(errorOf(a)).toMatchObject({ code: 'bad_gateway', type: 'service_error' });
    expect((await buy(sb)).status).toBe(502);
    expect((await buy(sb)).status).toBe(201);
    await call(sb, 'POST', '/_sandbox/faults', { body: { failNext: { status: 503, count: 1, code: 'maintenance' } } });
    const any = await call(sb, 'GET', '/me');
    expect(any.status).toBe(503);
    expect(any.headers.get('retry-after')).toBe('1');
    expect(errorOf(any).code).toBe('maintenance');
  });

  it('dropAfterCommit commits the purchase, drops the response; the idempotent retry replays it', async () => {
    const key = randomUUID();
    const before = (await call(sb, 'GET', '/account')).body.balanceUsd;
    await call(sb, 'POST', '/_sandbox/faults', { body: { dropAfterCommit: { op: 'create', count: 1 } } });
    await expect(buy(sb, { period: '3h' }, { 'idempotency-key': key })).rejects.toThrow();
    const after = (await call(sb, 'GET', '/account')).body.balanceUsd;
    expect(after).toBeLessThan(before);
    const retry = await buy(sb, { period: '3h' }, { 'idempotency-key': key });
    expect(retry.status).toBe(201);
    expect((await call(sb, 'GET', '/account')).body.balanceUsd).toBe(after);
    const state = (await call(sb, 'GET', '/_sandbox/state')).body;
    expect(state.units.filter((u: { proxyRef: string }) => u.proxyRef === retry.body.proxyRef)).toHaveLength(1);
    expect((await call(sb, 'GET', '/_sandbox/faults')).body.dropAfterCommit.count).toBe(0);
    expect((await call(sb, 'DELETE', '/_sandbox/faults')).body).toEqual({});
  });
});

describe('clock', () => {
  it('advance moves sandbox time and expiries follow', async () => {
    const u = (await buy(sb, { period: '3h' })).body;
    const r = await call(sb, 'POST', '/_sandbox/advance', { body: { seconds: 3 * 3600 } });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now)).toBeGreaterThanOrEqual(Date.parse(u.expiresAt));
    expect((await call(sb, 'GET', `/units/${u.proxyRef}`)).body.status).toBe('EXPIRED');
    expect(errorOf(await call(sb, 'POST', '/_sandbox/advance', { body: { seconds: -1 } })).code).toBe('validation_error');
  });

  it('--time-scale compresses time', async () => {
    const fast = await startFastSandbox({ timeScale: 3600 * 10 });
    try {
      const u = (await call(fast, 'POST', '/units', { body: { poolId: 'US-11', period: '3h' } })).body;
      await new Promise((r) => setTimeout(r, 400));
      expect((await call(fast, 'GET', `/units/${u.proxyRef}`)).body.status).toBe('EXPIRED');
    } finally {
      await fast.close();
    }
  });

  it('the library handle offers the same state and faults', async () => {
    expect(sb.state()).toMatchObject({ balanceUsd: (await call(sb, 'GET', '/account')).body.balanceUsd });
    expect(sb.faults({ failNext: { op: 'get', status: 500, count: 1 } }).failNext).toMatchObject({ op: 'get', status: 500, count: 1 });
    expect((await call(sb, 'GET', '/units/PRX-1')).status).toBe(500);
    expect((await call(sb, 'GET', '/units/PRX-1')).status).toBe(200);
  });

  it('the state dump shows everything, released and expired included', async () => {
    const s = (await call(sb, 'GET', '/_sandbox/state')).body;
    expect(s).toMatchObject({
      now: expect.any(String),
      balanceUsd: expect.any(Number),
      idempotency: expect.any(Number),
      webhook: { url: rx.url, enabled: true },
    });
    expect(s.units.some((u: { status: string }) => u.status === 'EXPIRED')).toBe(true);
    expect(s.deliveries.length).toBeGreaterThan(0);
  });
});

describe('control inputs cannot corrupt it; no request debits without a unit or an extension', () => {
  const money = async (s: Sandbox) => {
    const st = (await call(s, 'GET', '/_sandbox/state')).body;
    return { balanceUsd: st.balanceUsd, units: st.units.length, inFlightPurchases: st.inFlightPurchases };
  };

  it('an advance past the end of the clock is refused with 400 and moves nothing', async () => {
    const own = await startFastSandbox();
    try {
      const { now } = (await call(own, 'GET', '/_sandbox/state')).body;
      for (const seconds of [1e308, 253402300800, Number.MAX_VALUE]) {
        const r = await call(own, 'POST', '/_sandbox/advance', { body: { seconds } });
        expect([r.status, errorOf(r).code]).toEqual([400, 'validation_error']);
      }
      expect(Date.parse((await call(own, 'GET', '/_sandbox/state')).body.now) - Date.parse(now)).toBeLessThan(60_000);
      const before = (await call(own, 'GET', '/account')).body.balanceUsd;
      const u = await buy(own, { period: '3h' });
      expect(u.status).toBe(201);
      expect((await call(own, 'POST', `/units/${u.body.proxyRef}/extend`, { body: { period: '3h' } })).status).toBe(200);
      const p = (await call(own, 'GET', '/prices')).body.prices;
      expect((await call(own, 'GET', '/account')).body.balanceUsd).toBe(Math.round((before - 2 * p['3h']) * 100) / 100);
    } finally {
      await own.close();
    }
  });

  it('at the end of the clock a create or extend that would expire after it is refused and refunded', async () => {
    const own = await startFastSandbox();
    try {
      const u = (await buy(own, { period: '3h' })).body;
      const max = Math.floor(
        (Date.UTC(9999, 11, 31, 23, 59, 59, 999) - Date.parse((await call(own, 'GET', '/_sandbox/state')).body.now)) / 1000,
      );
      const r = await call(own, 'POST', '/_sandbox/advance', { body: { seconds: max - 4 * 3600 } });
      expect(r.status).toBe(200);
      expect(r.body.now).toMatch(/^9999-12-31T(19|20):/);
      const before = await money(own);
      const made = await buy(own, { period: '24h' });
      expect([made.status, errorOf(made).code]).toEqual([400, 'validation_error']);
      const ext = await call(own, 'POST', `/units/${u.proxyRef}/extend`, { body: { period: '24h' } });
      expect([ext.status, errorOf(ext).code]).toEqual([400, 'validation_error']);
      expect(await money(own)).toEqual(before);
      // Every read still answers, and a period that fits is still sold.
      expect((await call(own, 'GET', '/units?includeExpired=true')).status).toBe(200);
      expect((await call(own, 'GET', `/units/${u.proxyRef}`)).body.status).toBe('EXPIRED');
      expect((await call(own, 'POST', `/units/${u.proxyRef}/extend`, { body: { period: '3h' } })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('a balance out of range is refused with 400 and the balance stays', async () => {
    const own = await startFastSandbox();
    try {
      await call(own, 'POST', '/_sandbox/balance', { body: { balanceUsd: 250 } });
      for (const balanceUsd of [1e308, 1e12 + 1, -1]) {
        const r = await call(own, 'POST', '/_sandbox/balance', { body: { balanceUsd } });
        expect([r.status, errorOf(r).code]).toEqual([400, 'validation_error']);
      }
      expect((await call(own, 'GET', '/account')).body.balanceUsd).toBe(250);
      expect((await call(own, 'POST', '/_sandbox/balance', { body: { balanceUsd: 1e12 } })).body).toEqual({ balanceUsd: 1e12 });
      expect((await call(own, 'GET', '/account')).body.balanceUsd).toBe(1e12);
    } finally {
      await own.close();
    }
  });

  it('a create refused after the balance check (a bad description) leaves no debit', async () => {
    const before = await money(sb);
    const r = await buy(sb, { period: '3h', description: 5 });
    expect([r.status, errorOf(r).code]).toEqual([400, 'validation_error']);
    expect(await money(sb)).toEqual(before);
  });

  it('an injected fault status must be a whole HTTP error status', async () => {
    const armed = (await call(sb, 'GET', '/_sandbox/faults')).body;
    for (const status of [450.5, 399, 600]) {
      const r = await call(sb, 'POST', '/_sandbox/faults', { body: { failNext: { status, count: 1 } } });
      expect([r.status, errorOf(r).code]).toEqual([400, 'validation_error']);
    }
    expect((await call(sb, 'GET', '/_sandbox/faults')).body).toEqual(armed);
  });
});
