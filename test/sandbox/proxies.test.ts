// Sandbox units are real proxies on loopback: each protocol carries traffic to the sandbox's echo
// target, and refuses as a real proxy would (SOCKS auth failure, HTTP 407/403).
import { describe, expect, it } from 'vitest';
import { buy, call, sandboxWithEcho, tcpProbe, viaConnect, viaHttp, viaSocks } from '../helpers/index.js';

const t = sandboxWithEcho();

describe('each protocol carries traffic to the echo target', () => {
  it('socks5: the echo sees the request, from the pool address the unit shows', async () => {
    const u = (await buy(t.sb, { poolId: 'US-11' })).body;
    expect(u.ip).toMatch(/^127\./);
    const r = await viaSocks(u, `${t.echo}?q=1`, { headers: { authorization: 'Bearer secret', 'x-api-key': 'k', 'x-trace': 't1' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sourceAddress: u.ip, method: 'GET', url: '/echo?q=1', headers: { 'x-trace': 't1' } });
    expect(typeof r.body.sourcePort).toBe('number');
    expect(r.body.headers.authorization).toBeUndefined();
    expect(r.body.headers['x-api-key']).toBeUndefined();
  });

  it('http: absolute-form and CONNECT with Basic Proxy-Authorization; no secret reaches the target', async () => {
    const u = (await buy(t.sb, { poolId: 'GB-11', protocol: 'http' })).body;
    const plain = await viaHttp(u, t.echo);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ sourceAddress: u.ip, method: 'GET', url: '/echo' });
    expect(plain.body.headers['proxy-authorization']).toBeUndefined();
    const tunnel = await viaConnect(u, t.echo);
    expect(tunnel.status).toBe(200);
    expect(tunnel.body).toMatchObject({ sourceAddress: u.ip, url: '/echo' });
  });

  it('http_noauth: a source on allowedIps is admitted without credentials', async () => {
    const u = (await buy(t.sb, { poolId: 'DE-11', protocol: 'http_noauth', allowedIps: ['127.0.0.1'] })).body;
    const r = await viaHttp(u, t.echo, { localAddress: '127.0.0.1' });
    expect(r.status).toBe(200);
    expect(r.body.sourceAddress).toBe(u.ip);
    expect((await viaConnect(u, t.echo, { localAddress: '127.0.0.1' })).status).toBe(200);
  });

  it('units of different pools leave from different addresses', async () => {
    const a = (await buy(t.sb, { poolId: 'FR-11' })).body;
    const b = (await buy(t.sb, { poolId: 'NL-11' })).body;
    expect(a.ip).not.toBe(b.ip);
    expect((await viaSocks(a, t.echo)).body.sourceAddress).toBe(a.ip);
    expect((await viaSocks(b, t.echo)).body.sourceAddress).toBe(b.ip);
  });
});

describe('refusals as a real proxy gives them', () => {
  it('socks5 with a wrong password: authentication fails', async () => {
    const u = (await buy(t.sb)).body;
    await expect(viaSocks(u, t.echo, { password: 'wrong-password' })).rejects.toThrow(/auth/i);
  });

  it('http without or with wrong credentials: 407 with Proxy-Authenticate', async () => {
    const u = (await buy(t.sb, { protocol: 'http' })).body;
    for (const r of [
      await viaHttp(u, t.echo, { auth: false }),
      await viaHttp(u, t.echo, { password: 'nope' }),
      await viaConnect(u, t.echo, { auth: false }),
    ]) {
      expect(r.status).toBe(407);
      expect(r.headers['proxy-authenticate']).toMatch(/^Basic /);
    }
  });

  it('http_noauth from a source outside allowedIps: 403', async () => {
    const u = (await buy(t.sb, { protocol: 'http_noauth', allowedIps: ['127.0.0.1'] })).body;
    expect((await viaHttp(u, t.echo, { localAddress: '127.0.0.2' })).status).toBe(403);
    expect((await viaConnect(u, t.echo, { localAddress: '127.0.0.2' })).status).toBe(403);
  });

  it('a released unit: its port refuses connections', async () => {
    const u = (await buy(t.sb)).body;
    expect(await tcpProbe(u)).toBe('ok');
    expect((await call(t.sb, 'DELETE', `/units/${u.proxyRef}`)).status).toBe(200);
    expect(await tcpProbe(u)).toBe('ECONNREFUSED');
  });
});

describe('discovery', () => {
  it('openapi.json marks a sandbox and names its echo; /echo needs no key', async () => {
    const doc = (await call(t.sb, 'GET', '/openapi.json', { key: null })).body;
    expect(doc.info['x-proxyctl-sandbox']).toEqual({ echo: '/echo', proxies: true, addresses: 'per-pool' });
    const r = await fetch(t.echo, { method: 'POST', body: '{}', headers: { 'x-api-key': t.sb.apiKey, authorization: 'Basic eDp5' } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { headers: Record<string, string> };
    expect(body).toMatchObject({ sourceAddress: '127.0.0.1', method: 'POST', url: '/echo' });
    expect(body.headers['x-api-key']).toBeUndefined();
    expect(body.headers.authorization).toBeUndefined();
  });
});
