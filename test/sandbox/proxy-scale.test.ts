// Many proxies at once, the --max-proxies limit, restarts from a state file, --no-proxies, and a
// sandbox process that closes every listener when it is stopped.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buy, call, spawnSandbox, startFastSandbox, tcpProbe, tempHome, viaSocks } from '../helpers/index.js';

describe('limits', () => {
  it('500 units proxy at once under the default limit', async () => {
    const sb = await startFastSandbox({ rateLimit: 100_000, balance: 100_000 });
    onTestFinished(() => sb.close());
    const units = [];
    for (let i = 0; i < 500; i++) units.push((await buy(sb, { poolId: i % 2 ? 'US-11' : 'DE-11' })).body);
    expect(units.every((u) => u.proxied === undefined && u.ip.startsWith('127.'))).toBe(true);
    expect(new Set(units.map((u) => `${u.ip}:${u.port}`)).size).toBe(500);
    const probes: string[] = [];
    for (let i = 0; i < units.length; i += 50) probes.push(...(await Promise.all(units.slice(i, i + 50).map((u) => tcpProbe(u)))));
    expect(probes.filter((p) => p !== 'ok')).toEqual([]);
    for (const u of [units[0], units[249], units[499]]) expect((await viaSocks(u, `${sb.baseUrl}/echo`)).status).toBe(200);
  }, 180_000);

  it('past maxProxies a unit is sold but not proxied, and says so', async () => {
    const sb = await startFastSandbox({ maxProxies: 2 });
    onTestFinished(() => sb.close());
    const [a, b, c] = [(await buy(sb)).body, (await buy(sb)).body, (await buy(sb)).body];
    expect([a.proxied, b.proxied, c.proxied]).toEqual([undefined, undefined, false]);
    expect(c.status).toBe('ACTIVE');
    expect((await call(sb, 'GET', `/units/${c.proxyRef}`)).body.proxied).toBe(false);
    expect(await tcpProbe(c)).toBe('ECONNREFUSED');
    expect(await tcpProbe(a)).toBe('ok');
    // A released unit frees its place for the next purchase.
    await call(sb, 'DELETE', `/units/${a.proxyRef}`);
    const d = (await buy(sb)).body;
    expect(d.proxied).toBeUndefined();
    expect(await tcpProbe(d)).toBe('ok');
  });
});

describe('restart from a state file', () => {
  it('listens again on the same port; a port taken meanwhile is replaced and shown', async () => {
    const home = tempHome();
    onTestFinished(() => home.cleanup());
    const file = join(home.dir, 'sb.json');
    const first = await startFastSandbox({ stateFile: file });
    const kept = (await buy(first)).body;
    const lost = (await buy(first, { poolId: 'DE-11' })).body;
    await first.close();
    expect(await tcpProbe(kept)).toBe('ECONNREFUSED');
    const squatter = createServer((s) => s.destroy());
    await new Promise<void>((r) => squatter.listen(lost.port, lost.ip, r));
    onTestFinished(() => new Promise<void>((r) => squatter.close(() => r())));

    const second = await startFastSandbox({ stateFile: file });
    onTestFinished(() => second.close());
    const echo = `${second.baseUrl}/echo`;
    expect((await call(second, 'GET', `/units/${kept.proxyRef}`)).body).toMatchObject({ ip: kept.ip, port: kept.port });
    expect((await viaSocks(kept, echo)).status).toBe(200);
    const moved = (await call(second, 'GET', `/units/${lost.proxyRef}`)).body;
    expect(moved.ip).toBe(lost.ip);
    expect(moved.port).not.toBe(lost.port);
    expect((await viaSocks(moved, echo)).status).toBe(200);
  });
});

describe('proxyctl sandbox', () => {
  it('--no-proxies keeps documentation addresses where nothing listens', async () => {
    const home = tempHome();
    onTestFinished(() => home.cleanup());
    const sb = await spawnSandbox(home, ['--no-proxies']);
    onTestFinished(() => sb.stop());
    const headers = { 'x-api-key': sb.apiKey, 'content-type': 'application/json' };
    const u = (await (
      await fetch(`${sb.baseUrl}/api/reseller/v1/units`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ poolId: 'US-11', period: '24h' }),
      })
    ).json()) as { ip: string; port: number; proxied?: boolean };
    expect(u.ip).toMatch(/^198\.51\.100\./);
    expect(u.proxied).toBeUndefined();
    const doc = (await (await fetch(`${sb.baseUrl}/api/reseller/v1/openapi.json`)).json()) as { info: Record<string, unknown> };
    expect(doc.info['x-proxyctl-sandbox']).toEqual({ echo: '/echo', proxies: false, addresses: 'documentation' });
  });

  it('SIGTERM closes every listener and exits 0', async () => {
    const home = tempHome();
    onTestFinished(() => home.cleanup());
    const sb = await spawnSandbox(home, ['--max-proxies', '10']);
    const headers = { 'x-api-key': sb.apiKey, 'content-type': 'application/json' };
    const units: { ip: string; port: number }[] = [];
    for (let i = 0; i < 3; i++)
      units.push(
        (await (
          await fetch(`${sb.baseUrl}/api/reseller/v1/units`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ poolId: 'US-11', period: '24h' }),
          })
        ).json()) as { ip: string; port: number },
      );
    expect(await Promise.all(units.map((u) => tcpProbe(u)))).toEqual(['ok', 'ok', 'ok']);
    sb.child.kill('SIGTERM');
    const r = await sb.child;
    expect(r.exitCode).toBe(0);
    expect(await Promise.all(units.map((u) => tcpProbe(u)))).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
  });

  it('rejects a --max-proxies that is not a whole number', async () => {
    const home = tempHome();
    onTestFinished(() => home.cleanup());
    const { proxyctl } = await import('../helpers/index.js');
    const r = await proxyctl(['sandbox', '--port', '0', '--max-proxies', 'lots'], { home });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('--max-proxies');
  });
});
