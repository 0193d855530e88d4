// The unit's life drives its proxy: release, expiry, triggers (down/up), swap, change-protocol,
// PATCH, server.ip_changed; and the bytes it carries are its usage.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  buy,
  call,
  sandboxWithEcho,
  startFastSandbox,
  startWebhookSink,
  tcpProbe,
  viaConnect,
  viaHttp,
  viaSocks,
} from '../helpers/index.js';

const t = sandboxWithEcho();

const trigger = async (body: Record<string, unknown>) => {
  const r = await call(t.sb, 'POST', '/_sandbox/trigger', { body });
  expect(r.status).toBe(202);
  return r.body;
};
const unit = async (ref: string) => (await call(t.sb, 'GET', `/units/${ref}`)).body;

describe('triggers', () => {
  it('unit.down refuses connections until unit.up restores the proxy on the same port', async () => {
    const u = (await buy(t.sb)).body;
    await trigger({ event: 'unit.down', proxyRef: u.proxyRef });
    expect(await tcpProbe(u)).toBe('ECONNREFUSED');
    const up = await trigger({ event: 'unit.up', proxyRef: u.proxyRef });
    expect(up).toEqual({ event: 'unit.up', data: { proxyRef: u.proxyRef }, deliveries: [] });
    expect(await unit(u.proxyRef)).toMatchObject({ ip: u.ip, port: u.port });
    expect((await viaSocks(u, t.echo)).status).toBe(200);
  });

  it('server.down refuses every unit of the pool until server.up', async () => {
    const a = (await buy(t.sb, { poolId: 'CA-11' })).body;
    const b = (await buy(t.sb, { poolId: 'CA-11', protocol: 'http' })).body;
    const other = (await buy(t.sb, { poolId: 'BR-11' })).body;
    await trigger({ event: 'server.down', poolId: 'CA-11' });
    expect([await tcpProbe(a), await tcpProbe(b), await tcpProbe(other)]).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ok']);
    await trigger({ event: 'server.up', poolId: 'CA-11' });
    expect((await viaSocks(a, t.echo)).status).toBe(200);
    expect((await viaHttp(b, t.echo)).status).toBe(200);
  });

  it('server.ip_changed moves the pool’s proxies to the new address; the target sees it', async () => {
    const u = (await buy(t.sb, { poolId: 'GB-11' })).body;
    const r = await trigger({ event: 'server.ip_changed', poolId: 'GB-11', newIp: '127.203.0.77' });
    const moved = await unit(u.proxyRef);
    expect(moved.ip).toBe('127.203.0.77');
    expect(r.data.affectedUnits).toContainEqual({ proxyRef: u.proxyRef, ip: '127.203.0.77', port: moved.port });
    expect(await tcpProbe(u)).toBe('ECONNREFUSED');
    expect((await viaSocks(moved, t.echo)).body.sourceAddress).toBe('127.203.0.77');
    expect(
      (await call(t.sb, 'POST', '/_sandbox/trigger', { body: { event: 'server.ip_changed', poolId: 'GB-11', newIp: '203.0.113.5' } }))
        .status,
    ).toBe(400);
  });
});

describe('the API drives the listener', () => {
  it('expiry closes the listener; extending the expired unit listens again', async () => {
    const own = await startFastSandbox();
    try {
      const u = (await buy(own, { period: '3h' })).body;
      expect(await tcpProbe(u)).toBe('ok');
      await call(own, 'POST', '/_sandbox/advance', { body: { seconds: 3 * 3600 + 1 } });
      expect(await tcpProbe(u)).toBe('ECONNREFUSED');
      expect((await call(own, 'POST', `/units/${u.proxyRef}/extend`, { body: { period: '3h' } })).status).toBe(200);
      const back = (await call(own, 'GET', `/units/${u.proxyRef}`)).body;
      expect(back.status).toBe('ACTIVE');
      expect((await viaSocks(back, `${own.baseUrl}/echo`)).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('swap moves the proxy: the old port refuses, the answered one carries traffic', async () => {
    const u = (await buy(t.sb, { poolId: 'US-11' })).body;
    const r = await call(t.sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'FR-11' } });
    expect(r.status).toBe(200);
    expect(await tcpProbe(u)).toBe('ECONNREFUSED');
    expect(await unit(u.proxyRef)).toMatchObject({ ip: r.body.ip, port: r.body.port });
    expect((await viaSocks(r.body, t.echo)).body.sourceAddress).toBe(r.body.ip);
  });

  it('a unit downed by unit.down listens at the address its swap answers (the self-healing recipe)', async () => {
    const u = (await buy(t.sb, { poolId: 'US-11' })).body;
    await trigger({ event: 'unit.down', proxyRef: u.proxyRef });
    expect(await tcpProbe(u)).toBe('ECONNREFUSED');
    const r = await call(t.sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'FR-11' } });
    expect(r.status).toBe(200);
    expect(await unit(u.proxyRef)).toMatchObject({ ip: r.body.ip, port: r.body.port });
    expect((await viaSocks(r.body, t.echo)).body.sourceAddress).toBe(r.body.ip);
  });

  it('a pool flagged down by server.down is unavailable: no create or swap answers an address there', async () => {
    const u = (await buy(t.sb, { poolId: 'US-11' })).body;
    await trigger({ event: 'server.down', poolId: 'DE-11' });
    const before = (await call(t.sb, 'GET', '/account')).body.balanceUsd;
    expect((await call(t.sb, 'GET', '/pools/DE-11')).body.available).toBe(false);
    expect((await call(t.sb, 'GET', '/pools?country=DE')).body.data.find((p: { poolId: string }) => p.poolId === 'DE-11').available).toBe(
      false,
    );
    const swap = await call(t.sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'DE-11' } });
    expect([swap.status, swap.body.error.code]).toEqual([404, 'pool_not_found']);
    const made = await buy(t.sb, { poolId: 'DE-11' });
    expect([made.status, made.body.error.code]).toEqual([404, 'pool_not_available']);
    expect((await call(t.sb, 'GET', '/account')).body.balanceUsd).toBe(before);
    expect((await viaSocks(await unit(u.proxyRef), t.echo)).status).toBe(200);
    await trigger({ event: 'server.up', poolId: 'DE-11' });
    expect((await call(t.sb, 'GET', '/pools/DE-11')).body.available).toBe(true);
    const moved = await call(t.sb, 'POST', `/units/${u.proxyRef}/swap`, { body: { newPoolId: 'DE-11' } });
    expect((await viaSocks(moved.body, t.echo)).body.sourceAddress).toBe(moved.body.ip);
  });

  it('change-protocol switches what the port speaks', async () => {
    const u = (await buy(t.sb)).body;
    await call(t.sb, 'POST', `/units/${u.proxyRef}/change-protocol`, { body: { newProtocol: 'http' } });
    expect((await viaHttp(u, t.echo)).status).toBe(200);
    await expect(viaSocks(u, t.echo)).rejects.toThrow();
    await call(t.sb, 'POST', `/units/${u.proxyRef}/change-protocol`, { body: { newProtocol: 'http_noauth', allowedIps: ['127.0.0.1'] } });
    expect((await viaHttp(u, t.echo, { auth: false, localAddress: '127.0.0.1' })).status).toBe(200);
  });

  it('PATCH of credentials and allowedIps applies at once', async () => {
    const u = (await buy(t.sb)).body;
    const credentials = { username: 'newuser1', password: 'NewPassword123' };
    expect((await call(t.sb, 'PATCH', `/units/${u.proxyRef}`, { body: { credentials } })).status).toBe(200);
    await expect(viaSocks(u, t.echo)).rejects.toThrow(/auth/i);
    expect((await viaSocks({ ...u, credentials }, t.echo)).status).toBe(200);

    const n = (await buy(t.sb, { protocol: 'http_noauth', allowedIps: ['127.0.0.1'] })).body;
    expect((await viaConnect(n, t.echo, { localAddress: '127.0.0.3' })).status).toBe(403);
    await call(t.sb, 'PATCH', `/units/${n.proxyRef}`, { body: { allowedIps: ['127.0.0.1', '127.0.0.3'] } });
    expect((await viaConnect(n, t.echo, { localAddress: '127.0.0.3' })).status).toBe(200);
  });
});

describe('usage follows real traffic', () => {
  it('usedMb is exactly the bytes the clients exchanged with the proxy', async () => {
    const u = (await buy(t.sb, { period: '12h' })).body;
    const before = (await call(t.sb, 'GET', `/units/${u.proxyRef}/usage`)).body;
    expect(before).toMatchObject({ mode: 'pool', usedMb: 0, totalMb: 0 });
    let bytes = 0;
    for (let i = 0; i < 20; i++) bytes += (await viaSocks(u, t.echo, { headers: { 'x-pad': 'x'.repeat(8000) } })).bytes!;
    expect(bytes).toBeGreaterThan(300_000);
    const after = (await call(t.sb, 'GET', `/units/${u.proxyRef}/usage`)).body;
    const mb = Math.round((bytes / 1048576) * 1000) / 1000;
    expect(after).toMatchObject({
      mode: 'pool',
      quotaMb: 3072,
      usedMb: mb,
      totalMb: mb,
      remainingMb: Math.round((3072 - mb) * 1000) / 1000,
    });
  });

  it('daily mode counts today and in total', async () => {
    const u = (await buy(t.sb, { period: '30d' })).body;
    const { bytes } = await viaSocks(u, t.echo, { headers: { 'x-pad': 'y'.repeat(8000) } });
    const mb = Math.round((bytes! / 1048576) * 1000) / 1000;
    expect((await call(t.sb, 'GET', `/units/${u.proxyRef}/usage`)).body).toMatchObject({ mode: 'daily', todayMb: mb, totalMb: mb });
  });

  it('crossing 80% and 100% of the limit fires usage.warning and usage.throttled once, from real traffic', async () => {
    const rx = await startWebhookSink();
    onTestFinished(() => rx.close());
    await call(t.sb, 'PATCH', '/webhook', { body: { url: rx.url } });
    const u = (await buy(t.sb, { period: '3h' })).body;
    const MB = 1048576;
    const record = t.sb.world.state.units.get(u.proxyRef)!;
    const day = Math.floor(t.sb.world.clock.now() / 86_400_000);
    // Just below 80% of the 1024 MB quota: the next request crosses it (no need to push 800 MB).
    record.traffic = { totalBytes: 0.8 * 1024 * MB - 100, day, dayBytes: 0 };
    const events = async () => {
      await call(t.sb, 'GET', `/units/${u.proxyRef}/usage`);
      const all = (t.sb.state().deliveries as { event: string; payload: string }[]).map((d) => JSON.parse(d.payload));
      return all.filter((p) => p.data.proxyRef === u.proxyRef && p.event.startsWith('usage.'));
    };
    await viaSocks(u, t.echo);
    await viaSocks(u, t.echo);
    const warned = await events();
    expect(warned.map((p) => p.event)).toEqual(['usage.warning']);
    expect(warned[0].data).toMatchObject({ proxyRef: u.proxyRef, kind: 'throttle', thresholdPct: 80, limitMb: 1024 });
    expect(warned[0].data.consumedMb).toBeGreaterThanOrEqual(819.2);

    record.traffic.totalBytes = 1024 * MB - 100;
    await viaSocks(u, t.echo);
    const all = await events();
    expect(all.map((p) => p.event).sort()).toEqual(['usage.throttled', 'usage.warning']);
    expect(all.find((p) => p.event === 'usage.throttled').data).toMatchObject({
      proxyRef: u.proxyRef,
      limitMb: 1024,
      throttleSpeedMbps: 1,
    });
    expect((await call(t.sb, 'GET', `/units/${u.proxyRef}/usage`)).body).toMatchObject({ throttled: true, remainingMb: 0 });
  });
});
