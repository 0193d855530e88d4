// `units check` as people see it and stop it: on a terminal a coloured table and a summary line;
// Ctrl-C in the middle starts no new check, prints what finished and exits 130; a unit the sandbox
// sold past its proxy limit is not_proxied without a connection.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, inTerminal, outputUntil, startKit, type Kit, waitForText } from '../helpers/index.js';

let kit: Kit;
let silent: Server;
let silentPort = 0;

beforeAll(async () => {
  kit = await startKit();
  // Accepts and never answers: a check through it waits until Ctrl-C or --timeout.
  silent = createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentPort = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  silent.close();
  await kit.close();
});

async function buy(
  protocol = 'socks5',
): Promise<{ proxyRef: string; ip: string; port: number; credentials: { username: string; password: string } }> {
  const pool = kit.sb.world.pools.find((p) => p.available)!.poolId;
  const r = await call(kit.sb, 'POST', '/units', { body: { poolId: pool, period: '24h', protocol } });
  if (r.status !== 201) throw new Error(`buy failed: ${r.status} ${r.text}`);
  return r.body as never;
}

describe('units check for people', () => {
  it('Ctrl-C mid-run: no new check starts, the finished ones print, exit 130', async () => {
    const u = await buy();
    const line = `${u.ip}:${u.port}:${u.credentials.username}:${u.credentials.password}`;
    const path = join(kit.home.dir, 'stop.txt');
    writeFileSync(path, `${line}\n127.0.0.1:${silentPort}:u:p\n${line}\n`);
    const child = kit.run(['units', 'check', '--from-file', path, '--concurrency', '1', '--timeout', '60', '--json']);
    await outputUntil(child, 'stderr', (t) => t.includes('[1/3] checked line 1 ok'));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const results = JSON.parse(String(r.stdout)) as { line: number; ok: boolean }[];
    expect(results.map((x) => [x.line, x.ok])).toEqual([[1, true]]);
    expect(String(r.stderr)).toMatch(/^1 ok, 0 failed, 2 not started \(interrupted\)/m);
  }, 90_000);

  it('a unit sold past the proxy limit is not_proxied, and no connection is tried', async () => {
    // Its own sandbox: one proxy at most, so the second unit bought is sold without a listener.
    const small = await startKit({ maxProxies: 1 });
    try {
      const pool = small.sb.world.pools.find((p) => p.available)!.poolId;
      for (let i = 0; i < 2; i++) {
        const r = await call(small.sb, 'POST', '/units', { body: { poolId: pool, period: '24h', protocol: 'socks5' } });
        expect(r.status).toBe(201);
      }
      const listed = await small.api<{ data: { proxyRef: string; proxied?: boolean }[] }>('/units?pageSize=200');
      const over = listed.data.filter((u) => u.proxied === false).map((u) => u.proxyRef);
      expect(over).toHaveLength(1);
      const r = await small.run(['units', 'check', '--all', '--json']);
      expect(r.exitCode).toBe(10);
      const results = JSON.parse(String(r.stdout)) as { ref: string; ok: boolean; error: string | null; latencyMs: number | null }[];
      expect(results.filter((x) => !x.ok).map((x) => [x.ref, x.error, x.latencyMs])).toEqual([[over[0], 'not_proxied', null]]);
      expect(results.filter((x) => x.ok)).toHaveLength(1);
    } finally {
      await small.close();
    }
  }, 90_000);

  it('on a terminal: a table with an ok column, a summary line; passwords never shown', async () => {
    const u = await buy('http');
    const t = inTerminal(
      {
        PROXYCTL_BASE_URL: kit.sb.baseUrl,
        PROXYCTL_API_KEY: kit.sb.apiKey,
        PROXYCTL_CONFIG_DIR: kit.home.configDir,
        NO_COLOR: '',
        FORCE_COLOR: '1',
      },
      ['units', 'check', u.proxyRef, 'PRX-999999'],
      { columns: 120 },
    );
    await waitForText(t, /1 ok.*, .*1 failed/);
    const r = await t.child;
    expect(r.exitCode).toBe(10);
    const screen = t.screen();
    expect(screen).toMatch(/unit.*ip.*port.*protocol.*ok.*status.*ms.*exit ip.*error/);
    expect(screen).toContain(`\u001b[32mok\u001b[39m`);
    expect(screen).toContain(`\u001b[31mFAIL\u001b[39m`);
    expect(screen).toContain('not_found');
    expect(screen).not.toContain(u.credentials.password);
  }, 90_000);
});
