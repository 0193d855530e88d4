// `units check` end to end on loopback: units bought on the sandbox are real proxies; the binary
// connects through each with its own protocol and credentials to the sandbox's echo, which says
// what address the request came from. Then every way a unit stops working fails with its code.
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startKit, startScriptedServer, type Kit } from '../helpers/index.js';
import type { CheckResult } from '../../src/units/check.js';

interface ApiUnit {
  proxyRef: string;
  poolId: string;
  ip: string;
  port: number;
  protocol: string;
  credentials: { username: string; password: string } | null;
  allowedIps?: string[];
}

type Result = CheckResult;

let kit: Kit;
let pools: string[];

beforeAll(async () => {
  kit = await startKit();
  pools = kit.sb.world.pools.filter((p) => p.available).map((p) => p.poolId);
});
afterAll(() => kit.close());

async function buy(protocol: string, extra: Record<string, unknown> = {}, pool = pools[0]): Promise<ApiUnit> {
  const r = await call(kit.sb, 'POST', '/units', { body: { poolId: pool, period: '24h', protocol, ...extra } });
  if (r.status !== 201) throw new Error(`buy failed: ${r.status} ${r.text}`);
  return r.body as unknown as ApiUnit;
}

async function check(args: string[]): Promise<{ code: number | undefined; results: Result[]; stderr: string }> {
  const r = await kit.run(['units', 'check', ...args, '--json']);
  const out = String(r.stdout);
  return { code: r.exitCode, results: out ? (JSON.parse(out) as Result[]) : [], stderr: String(r.stderr) };
}

function file(name: string, lines: string[]): string {
  const p = join(kit.home.dir, name);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

/** A passing result for a unit, as the echo saw it: from the unit's own address. */
function passed(u: ApiUnit, source: { ref?: string; line?: number } = { ref: u.proxyRef }) {
  return {
    ref: source.ref ?? null,
    line: source.line ?? null,
    ip: u.ip,
    port: u.port,
    protocol: u.protocol,
    ok: true,
    status: 200,
    latencyMs: expect.any(Number),
    exitIp: u.ip,
    error: null,
    message: null,
  };
}

function failed(
  u: ApiUnit,
  error: string,
  source: { ref?: string; line?: number } = { ref: u.proxyRef },
  protocol: string | null = u.protocol,
) {
  return {
    ref: source.ref ?? null,
    line: source.line ?? null,
    ip: u.ip,
    port: u.port,
    protocol,
    ok: false,
    status: null,
    latencyMs: null,
    exitIp: null,
    error,
    message: expect.any(String),
  };
}

describe('units check against the sandbox', () => {
  it('units of every protocol carry a request to the echo, which saw it from the unit address (exit 0)', async () => {
    const socks = await buy('socks5', {}, pools[0]);
    const http = await buy('http', {}, pools[1]);
    const noauth = await buy('http_noauth', { allowedIps: ['127.0.0.1'] }, pools[2]);
    const { code, results } = await check([socks.proxyRef, http.proxyRef, noauth.proxyRef]);
    expect(code).toBe(0);
    expect(results).toEqual([passed(socks), passed(http), passed(noauth)]);
    // The traffic was real: the sandbox counted it as the units' usage.
    for (const u of [socks, http, noauth]) {
      const usage = await kit.api<{ totalMb?: number; usedMb?: number }>(`/units/${u.proxyRef}/usage`);
      expect(Number(usage.totalMb ?? usage.usedMb)).toBeGreaterThan(0);
    }
  }, 90_000);

  it('--all and --pool read the units through the API', async () => {
    const pool = pools[3]!;
    const a = await buy('socks5', {}, pool);
    const b = await buy('http', {}, pool);
    const { code, results } = await check(['--pool', pool]);
    expect(code).toBe(0);
    expect(results).toEqual([passed(a), passed(b)]);
    const all = await check(['--all', '--concurrency', '16']);
    expect(all.code).toBe(0);
    expect(all.results.map((r) => r.ref)).toEqual(expect.arrayContaining([a.proxyRef, b.proxyRef]));
    expect(all.results.every((r) => r.ok)).toBe(true);
  }, 90_000);

  it('--from-file reads every connection format, finds the protocol of colon lines, and skips comments', async () => {
    const socks = await buy('socks5');
    const http = await buy('http');
    const noauth = await buy('http_noauth', { allowedIps: ['127.0.0.1'] });
    const s = socks.credentials!;
    const h = http.credentials!;
    const path = file('mixed.txt', [
      '# a customer list',
      `${socks.ip}:${socks.port}:${s.username}:${s.password}`,
      `${http.ip}:${http.port}:${h.username}:${h.password}`,
      `${noauth.ip}:${noauth.port}`,
      '',
      `${s.username}:${s.password}@${socks.ip}:${socks.port}`,
      `${h.username}:${h.password}@${http.ip}:${http.port}`,
      `socks5://${s.username}:${s.password}@${socks.ip}:${socks.port}`,
      `http://${h.username}:${h.password}@${http.ip}:${http.port}`,
      `http://${noauth.ip}:${noauth.port}`,
    ]);
    const { code, results } = await check(['--from-file', path]);
    expect(code).toBe(0);
    expect(results).toEqual([
      passed(socks, { line: 2 }),
      passed(http, { line: 3 }),
      passed(noauth, { line: 4 }),
      passed(socks, { line: 6 }),
      passed(http, { line: 7 }),
      passed(socks, { line: 8 }),
      passed(http, { line: 9 }),
      passed(noauth, { line: 10 }),
    ]);
  }, 90_000);

  it('the old password fails with auth_failed once it was changed through the API (socks5 and http)', async () => {
    const socks = await buy('socks5');
    const http = await buy('http');
    const lines = [socks, http].map((u) => `${u.ip}:${u.port}:${u.credentials!.username}:${u.credentials!.password}`);
    for (const u of [socks, http]) {
      const r = await kit.run(['units', 'modify', u.proxyRef, '--username', u.credentials!.username, '--password', 'Changed123']);
      expect(r.exitCode, String(r.stderr)).toBe(0);
    }
    const { code, results } = await check(['--from-file', file('old.txt', lines)]);
    expect(code).toBe(10);
    expect(results).toEqual([failed(socks, 'auth_failed', { line: 1 }), failed(http, 'auth_failed', { line: 2 })]);
    // The unit itself, with its new credentials from the API, passes.
    expect((await check([socks.proxyRef, http.proxyRef])).code).toBe(0);
  }, 90_000);

  it('a source outside allowedIps fails with ip_not_allowed', async () => {
    const u = await buy('http_noauth', { allowedIps: ['203.0.113.7'] });
    const { code, results } = await check([u.proxyRef]);
    expect(code).toBe(10);
    expect(results).toEqual([failed(u, 'ip_not_allowed')]);
  }, 90_000);

  it('released, downed and swapped-away units are refused; a downed unit passes again after unit.up', async () => {
    const released = await buy('socks5');
    const downed = await buy('http');
    const swapped = await buy('socks5', {}, pools[0]);
    const lineOf = (u: ApiUnit) => `${u.ip}:${u.port}:${u.credentials!.username}:${u.credentials!.password}`;
    const oldLines = [lineOf(released), lineOf(swapped)];

    expect((await kit.run(['units', 'release', released.proxyRef, '--yes'])).exitCode).toBe(0);
    await kit.control('/trigger', { event: 'unit.down', proxyRef: downed.proxyRef });
    const swap = await kit.run(['units', 'swap', swapped.proxyRef, '--pool', pools[1]!, '--json']);
    expect(swap.exitCode, String(swap.stderr)).toBe(0);
    const moved = JSON.parse(String(swap.stdout)) as ApiUnit;
    expect(moved.port).not.toBe(swapped.port);

    // By ref: the API no longer lists the released unit; the downed one refuses; the swapped one works where it moved.
    const byRef = await check([released.proxyRef, downed.proxyRef, moved.proxyRef]);
    expect(byRef.code).toBe(10);
    expect(byRef.results).toEqual([
      { ...failed(released, 'not_found'), ip: null, port: null, protocol: null, message: `the API has no unit ${released.proxyRef}` },
      failed(downed, 'refused'),
      passed(moved),
    ]);

    // The customer's old lines: the released unit and the swapped unit's old port refuse (a colon line's protocol stays unknown).
    const old = await check(['--from-file', file('gone.txt', oldLines)]);
    expect(old.code).toBe(10);
    expect(old.results).toEqual([failed(released, 'refused', { line: 1 }, null), failed(swapped, 'refused', { line: 2 }, null)]);

    await kit.control('/trigger', { event: 'unit.up', proxyRef: downed.proxyRef });
    expect((await check([downed.proxyRef])).results).toEqual([passed(downed)]);
  }, 90_000);

  it('a ref the API does not know is that row failing with not_found, the others still checked', async () => {
    const u = await buy('socks5');
    const { code, results } = await check([u.proxyRef, 'PRX-999999']);
    expect(code).toBe(10);
    expect(results).toEqual([
      passed(u),
      {
        ref: 'PRX-999999',
        line: null,
        ip: null,
        port: null,
        protocol: null,
        ok: false,
        status: null,
        latencyMs: null,
        exitIp: null,
        error: 'not_found',
        message: 'the API has no unit PRX-999999',
      },
    ]);
  }, 90_000);

  it('a foreign target: its status counts (target_error from 500), garbage is bad_response, silence is timeout; no exit address', async () => {
    const u = await buy('socks5');
    const fine = await startScriptedServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
    const broken = await startScriptedServer((_req, res) => void res.writeHead(500).end());
    const silent = await startScriptedServer(() => undefined);
    // Its sockets are destroyed at the end: s.end() only half-closes, and garbage.close() would wait
    // for the proxy's side of a connection it may keep open (a 90 s hang under load).
    const garbageSockets = new Set<Socket>();
    const garbage: Server = createServer((s) => {
      garbageSockets.add(s);
      s.end('this is not HTTP\r\n\r\n');
    });
    await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
    const garbageUrl = `http://127.0.0.1:${(garbage.address() as { port: number }).port}/`;
    try {
      const ok = await check([u.proxyRef, '--target', `${fine.url}/x`]);
      expect(ok.code).toBe(0);
      expect(ok.results).toEqual([{ ...passed(u), exitIp: null }]);
      expect(fine.requests.map((r) => [r.method, r.url])).toEqual([['GET', '/x']]);
      // No credential of the unit reached the target.
      expect(JSON.stringify(fine.requests[0]!.headers)).not.toContain(u.credentials!.password);
      // Nor of an HTTP unit, whose credentials do travel in headers (Proxy-Authorization, to the proxy only).
      const h = await buy('http');
      const viaHttp = await check([h.proxyRef, '--target', `${fine.url}/y`]);
      expect(viaHttp.code).toBe(0);
      const seen = fine.requests.find((r) => r.url === '/y')!;
      expect(Object.keys(seen.headers)).not.toContain('proxy-authorization');
      expect(JSON.stringify(seen.headers)).not.toContain(h.credentials!.password);
      expect(JSON.stringify(seen.headers)).not.toContain(
        Buffer.from(`${h.credentials!.username}:${h.credentials!.password}`).toString('base64'),
      );

      const five = await check([u.proxyRef, '--target', broken.url]);
      expect(five.code).toBe(10);
      expect(five.results).toEqual([{ ...failed(u, 'target_error'), status: 500, latencyMs: expect.any(Number) }]);

      const bad = await check([u.proxyRef, '--target', garbageUrl]);
      expect(bad.results).toEqual([failed(u, 'bad_response')]);

      const slow = await check([u.proxyRef, '--target', silent.url, '--timeout', '1']);
      expect(slow.results).toEqual([failed(u, 'timeout')]);
    } finally {
      for (const s of garbageSockets) s.destroy();
      await Promise.all([fine.close(), broken.close(), silent.close(), new Promise((r) => garbage.close(r))]);
    }
  }, 90_000);
});
