// Webhooks (spec §4.4, §6): configuration, signatures checked here with node:crypto, the event of
// every operation, balance.low, the test operation, retries on a failing receiver, the log.
import { timingSafeEqual } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { buy, call, errorOf, pollUntil, signature, startFastSandbox, startWebhookSink, type WebhookSink } from '../helpers/index.js';

let sb: Sandbox;
let rx: WebhookSink;
let secret: string;

beforeAll(async () => {
  sb = await startFastSandbox({ balanceLowThreshold: 990, deliveryTimeoutMs: 300 });
  rx = await startWebhookSink();
});
afterAll(async () => {
  await sb.close();
  await rx.close();
});
beforeEach(async () => {
  rx.respond = 200;
  const r = await call(sb, 'PATCH', '/webhook', { body: { url: rx.url } });
  secret = r.body.secret;
});

function verify(raw: string, header: string | string[] | undefined, key = secret): boolean {
  const expected = Buffer.from(signature(raw, key));
  const got = Buffer.from(String(header));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

const eventsAfter = (n: number) =>
  rx.received
    .slice(n)
    .map((x) => JSON.parse(x.raw) as { id: string; event: string; occurredAt: string; data: Record<string, unknown>; test?: boolean });

describe('webhook configuration', () => {
  it('PATCH returns url, secret, enabled; GET returns the same; DELETE disables', async () => {
    const set = await call(sb, 'PATCH', '/webhook', { body: { url: 'https://hooks.example.com/proxy' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ url: 'https://hooks.example.com/proxy', secret: expect.stringMatching(/^whsec_/), enabled: true });
    expect((await call(sb, 'GET', '/webhook')).body).toEqual(set.body);
    expect((await call(sb, 'GET', '/me')).body.webhook).toEqual({ url: 'https://hooks.example.com/proxy', enabled: true });
    const del = await call(sb, 'DELETE', '/webhook');
    expect(del.body).toEqual({ enabled: false });
    expect((await call(sb, 'GET', '/webhook')).body).toEqual({ url: null, secret: null, enabled: false });
    await call(sb, 'PATCH', '/webhook', { body: { url: rx.url } });
    expect((await call(sb, 'PATCH', '/webhook', { body: { url: null } })).body).toEqual({ url: null, secret: null, enabled: false });
  });

  it.each(['http://hooks.example.com/x', 'ftp://127.0.0.1/x', 'not a url', 42])(
    'rejects url %j with 400 webhook_url_invalid',
    async (url) => {
      const r = await call(sb, 'PATCH', '/webhook', { body: { url } });
      expect(r.status).toBe(400);
      expect(errorOf(r).code).toBe('webhook_url_invalid');
    },
  );

  it('the test operation without a webhook is 409 webhook_not_configured', async () => {
    await call(sb, 'DELETE', '/webhook');
    const r = await call(sb, 'POST', '/webhook/test');
    expect(r.status).toBe(409);
    expect(errorOf(r).code).toBe('webhook_not_configured');
  });
});

describe('deliveries', () => {
  it('every operation emits its event, signed with the secret, with the four X-Service-* headers', async () => {
    const n = rx.received.length;
    const u = (await buy(sb, { period: '3h' })).body;
    await call(sb, 'POST', `/units/${u.proxyRef}/extend`, { body: { period: '3h' } });
    await call(sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'GB-11' } });
    await call(sb, 'POST', `/units/${u.proxyRef}/change-protocol`, { body: { newProtocol: 'http' } });
    await call(sb, 'PATCH', `/units/${u.proxyRef}`, { body: { description: 'x' } });
    await call(sb, 'DELETE', `/units/${u.proxyRef}`);
    await pollUntil(() => rx.received.length >= n + 6);
    await sb.deliveriesIdle();
    const got = eventsAfter(n).sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
    expect(new Set(got.map((e) => e.event))).toEqual(
      new Set(['unit.created', 'unit.extended', 'unit.swapped', 'unit.protocol_changed', 'unit.modified', 'unit.released']),
    );
    const created = got.find((e) => e.event === 'unit.created')!;
    expect(created.data).toEqual({ proxyRef: u.proxyRef, poolId: 'US-11', period: '3h', pricePaid: expect.any(Number) });
    expect(created.id).toMatch(/^dlv_/);
    const extended = got.find((e) => e.event === 'unit.extended')!;
    expect(extended.data).toEqual({ proxyRef: u.proxyRef, period: '3h', pricePaid: expect.any(Number), expiresAt: expect.any(String) });
    for (const rec of rx.received.slice(n)) {
      expect(verify(rec.raw, rec.headers['x-service-signature'])).toBe(true);
      expect(rec.headers['content-type']).toBe('application/json');
      expect(rec.headers['x-service-event']).toBe(JSON.parse(rec.raw).event);
      expect(rec.headers['x-service-delivery']).toBeTruthy();
      expect(Math.abs(Number(rec.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(new Set(rx.received.slice(n).map((r) => r.headers['x-service-delivery'])).size).toBe(6);
  });

  it('a signature made with another secret does not verify (the check here can fail)', async () => {
    const d = (await call(sb, 'POST', '/webhook/test')).body;
    await pollUntil(() => rx.received.some((x) => JSON.parse(x.raw).id === d.eventId));
    const rec = rx.received.find((x) => JSON.parse(x.raw).id === d.eventId)!;
    expect(verify(rec.raw, rec.headers['x-service-signature'])).toBe(true);
    expect(verify(rec.raw, rec.headers['x-service-signature'], 'whsec_wrong')).toBe(false);
    expect(verify(`${rec.raw} `, rec.headers['x-service-signature'])).toBe(false);
  });

  it('the test operation answers 202 with the delivery record and sends test: true', async () => {
    await sb.deliveriesIdle();
    const n = rx.received.length;
    const r = await call(sb, 'POST', '/webhook/test');
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      id: expect.stringMatching(/^dlv_/),
      event: 'unit.created',
      url: rx.url,
      status: 'PENDING',
      attempts: 0,
      maxAttempts: 6,
      responseStatus: null,
      deliveredAt: null,
    });
    await pollUntil(() => eventsAfter(n).some((x) => x.id === r.body.eventId));
    const e = eventsAfter(n).find((x) => x.id === r.body.eventId)!;
    expect(e).toMatchObject({ event: 'unit.created', test: true, data: { proxyRef: expect.any(String), period: '24h' } });
    await sb.deliveriesIdle();
    const log = await call(sb, 'GET', '/webhook/deliveries?pageSize=1');
    expect(log.body.data[0]).toMatchObject({
      id: r.body.id,
      status: 'DELIVERED',
      attempts: 1,
      responseStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(log.body.data[0].deliveredAt).not.toBeNull();
  });

  it('balance.low fires once when the balance drops below the threshold', async () => {
    const n = rx.received.length;
    await buy(sb, { period: '30d' });
    await buy(sb, { period: '30d' });
    await pollUntil(() => eventsAfter(n).some((e) => e.event === 'balance.low'));
    await sb.deliveriesIdle();
    const low = eventsAfter(n).filter((e) => e.event === 'balance.low');
    expect(low).toHaveLength(1);
    expect(low[0]!.data).toEqual({ balance: expect.any(Number), threshold: 990 });
    expect(low[0]!.data.balance as number).toBeLessThan(990);
  });

  it('a failing receiver is retried after 1m, 5m, 30m, 2h, 6h (sandbox time), 6 attempts, then FAILED', async () => {
    await sb.deliveriesIdle();
    rx.respond = 500;
    const d = (await call(sb, 'POST', '/webhook/test')).body;
    const mine = () => rx.received.filter((x) => JSON.parse(x.raw).id === d.eventId);
    const delays = [60, 300, 1800, 7200, 21600];
    for (let attempt = 1; attempt <= 6; attempt++) {
      await pollUntil(() => mine().length >= attempt);
      await sb.deliveriesIdle();
      const rec = (await call(sb, 'GET', `/webhook/deliveries?status=${attempt < 6 ? 'PENDING' : 'FAILED'}`)).body.data.find(
        (x: { id: string }) => x.id === d.id,
      );
      expect(rec).toMatchObject({ attempts: attempt, responseStatus: 500, lastError: 'receiver answered HTTP 500' });
      if (attempt < 6) {
        const wait = Date.parse(rec.nextAttemptAt) - Date.parse((await call(sb, 'GET', '/_sandbox/state')).body.now);
        expect(Math.round(wait / 1000)).toBeGreaterThan(delays[attempt - 1]! - 3);
        expect(Math.round(wait / 1000)).toBeLessThanOrEqual(delays[attempt - 1]!);
        // Not yet due: nothing happens until the clock reaches the retry time.
        await new Promise((r) => setTimeout(r, 30));
        expect(mine()).toHaveLength(attempt);
        sb.advance(delays[attempt - 1]!);
      } else {
        expect(rec.nextAttemptAt).toBeNull();
      }
    }
    const attempts = mine();
    expect(attempts).toHaveLength(6);
    // Same payload (and event id) on every attempt; a new X-Service-Delivery each time.
    expect(new Set(attempts.map((a) => a.raw)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-service-delivery'])).size).toBe(6);
    for (const a of attempts) expect(verify(a.raw, a.headers['x-service-signature'])).toBe(true);
  });

  it('with --time-scale the whole retry schedule runs by itself (no advance)', async () => {
    const fast = await startFastSandbox({ timeScale: 36_000 });
    const dead = await startWebhookSink();
    dead.respond = 500;
    try {
      await call(fast, 'PATCH', '/webhook', { body: { url: dead.url } });
      const d = (await call(fast, 'POST', '/webhook/test')).body;
      await pollUntil(
        async () => (await call(fast, 'GET', '/webhook/deliveries?status=FAILED')).body.data.some((x: { id: string }) => x.id === d.id),
        10_000,
      );
      expect(dead.received).toHaveLength(6);
      // 1m, 5m, 30m, 2h, 6h at 36,000x are about 2, 8, 50, 200 and 600 ms of real time.
      const gaps = dead.received.slice(1).map((r, i) => r.at - dead.received[i]!.at);
      expect(gaps[4]!).toBeGreaterThan(gaps[2]!);
      expect(gaps[4]!).toBeGreaterThanOrEqual(550);
    } finally {
      await fast.close();
      await dead.close();
    }
  });

  it('a receiver that does not answer in time counts as a failed attempt', async () => {
    rx.respond = 'hang';
    const d = (await call(sb, 'POST', '/webhook/test')).body;
    await pollUntil(async () =>
      (await call(sb, 'GET', '/webhook/deliveries?status=PENDING')).body.data.some(
        (x: { id: string; attempts: number }) => x.id === d.id && x.attempts === 1,
      ),
    );
    const rec = (await call(sb, 'GET', '/webhook/deliveries?status=PENDING')).body.data.find((x: { id: string }) => x.id === d.id);
    expect(rec.lastError).toContain('did not answer');
    expect(rec.responseStatus).toBeNull();
  });

  it('the answer must come within the timeout in total: trickling header bytes does not extend it', async () => {
    // A raw TCP receiver that sends one header line every 100 ms for 3 s, then a 200 answer.
    const sockets = new Set<Socket>();
    const drip = createNetServer((sock) => {
      sockets.add(sock);
      sock.on('error', () => undefined);
      sock.write('HTTP/1.1 200 OK\r\n');
      let n = 0;
      const t = setInterval(() => {
        if (sock.destroyed) return clearInterval(t);
        if (++n < 30) return void sock.write(`x-drip-${n}: 1\r\n`);
        clearInterval(t);
        sock.end('content-length: 0\r\n\r\n');
      }, 100);
    });
    await new Promise<void>((r) => drip.listen(0, '127.0.0.1', r));
    try {
      await call(sb, 'PATCH', '/webhook', { body: { url: `http://127.0.0.1:${(drip.address() as AddressInfo).port}/` } });
      const d = (await call(sb, 'POST', '/webhook/test')).body;
      // Polled through the library handle, so the rate budget the other tests use is untouched.
      const find = () =>
        (sb.state().deliveries as { id: string; attempts: number; status: string; lastError: string | null }[]).find((x) => x.id === d.id);
      await pollUntil(() => find()?.attempts === 1);
      const rec = find()!;
      expect(rec.status).toBe('PENDING');
      expect(rec.lastError).toContain('did not answer within 300 ms');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => drip.close(r));
    }
  });

  it('a receiver that recovers gets the retry and the record turns DELIVERED', async () => {
    rx.respond = 503;
    const d = (await call(sb, 'POST', '/webhook/test')).body;
    await pollUntil(async () =>
      (await call(sb, 'GET', '/webhook/deliveries?status=PENDING')).body.data.some(
        (x: { id: string; attempts: number }) => x.id === d.id && x.attempts === 1,
      ),
    );
    rx.respond = 204;
    sb.advance(60);
    await pollUntil(async () =>
      (await call(sb, 'GET', '/webhook/deliveries?status=DELIVERED')).body.data.some((x: { id: string }) => x.id === d.id),
    );
    const done = (await call(sb, 'GET', '/webhook/deliveries?status=DELIVERED')).body.data.find((x: { id: string }) => x.id === d.id);
    expect(done).toMatchObject({ attempts: 2, responseStatus: 204 });
    const mine = rx.received.filter((x) => JSON.parse(x.raw).id === d.eventId);
    expect(mine).toHaveLength(2);
    expect(mine[1]!.raw).toBe(mine[0]!.raw);
  });

  it('the log filters by status and event, newest first, and paginates', async () => {
    const all = (await call(sb, 'GET', '/webhook/deliveries?pageSize=100')).body;
    expect(all.pagination).toMatchObject({ page: 1, pageSize: 100, total: all.data.length, totalPages: 1 });
    const created = all.data.map((d: { createdAt: string }) => d.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const byEvent = (await call(sb, 'GET', '/webhook/deliveries?event=unit.swapped')).body.data;
    expect(byEvent.length).toBeGreaterThan(0);
    expect(byEvent.every((d: { event: string }) => d.event === 'unit.swapped')).toBe(true);
    const p2 = (await call(sb, 'GET', '/webhook/deliveries?pageSize=2&page=2')).body;
    expect(p2.data.map((d: { id: string }) => d.id)).toEqual(all.data.slice(2, 4).map((d: { id: string }) => d.id));
    expect(p2.pagination).toEqual({ page: 2, pageSize: 2, total: all.data.length, totalPages: Math.ceil(all.data.length / 2) });
    const def = (await call(sb, 'GET', '/webhook/deliveries')).body.pagination;
    expect(def.pageSize).toBe(25);
    for (const q of ['pageSize=101', 'pageSize=0', 'page=0', 'status=LOST']) {
      const r = await call(sb, 'GET', `/webhook/deliveries?${q}`);
      expect(r.status, q).toBe(400);
      expect(errorOf(r).code).toBe('validation_error');
    }
  });
});
