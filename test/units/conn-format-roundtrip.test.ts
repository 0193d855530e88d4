// The list a customer receives is the list `units check --from-file` proves: every --conn-format
// preset and a few templates, written by `units list` from units bought on the sandbox (real
// proxies on loopback), read back by `units check`, and each line carries a request to the echo
// from its unit's own address.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startKit, type Kit } from '../helpers/index.js';
import type { CheckResult } from '../../src/units/check.js';

interface ApiUnit {
  proxyRef: string;
  ip: string;
  port: number;
  protocol: string;
}

let kit: Kit;
let authPool: string;
let mixedPool: string;
const bought = new Map<string, ApiUnit[]>();

async function buy(pool: string, protocol: string, extra: Record<string, unknown> = {}): Promise<ApiUnit> {
  const r = await call(kit.sb, 'POST', '/units', { body: { poolId: pool, period: '24h', protocol, ...extra } });
  if (r.status !== 201) throw new Error(`buy failed: ${r.status} ${r.text}`);
  const u = r.body as unknown as ApiUnit;
  bought.set(pool, [...(bought.get(pool) ?? []), u]);
  return u;
}

beforeAll(async () => {
  kit = await startKit();
  const pools = kit.sb.world.pools.filter((p) => p.available).map((p) => p.poolId);
  [authPool, mixedPool] = [pools[0]!, pools[1]!];
  // Units with credentials of both protocols in one pool; every protocol, no-auth included, in another.
  await buy(authPool, 'socks5');
  await buy(authPool, 'http');
  await buy(mixedPool, 'socks5');
  await buy(mixedPool, 'http');
  await buy(mixedPool, 'http_noauth', { allowedIps: ['127.0.0.1'] });
  // Passwords with characters a URL must percent-encode (and a colon or at line must keep as they
  // are), so the url preset's encoding and the reader's decoding are both exercised.
  for (const [i, u] of bought
    .get(mixedPool)!
    .filter((x) => x.protocol !== 'http_noauth')
    .entries()) {
    const r = await call(kit.sb, 'PATCH', `/units/${u.proxyRef}`, {
      body: { credentials: { username: `cust.${i}-x`, password: `p/s%#?x${i}&=+` } },
    });
    if (r.status !== 200) throw new Error(`PATCH failed: ${r.status} ${r.text}`);
  }
});
afterAll(() => kit.close());

/** Writes the pool's list in the format, checks it from the file, and returns both. */
async function roundTrip(pool: string, format: string) {
  const list = await kit.run(['units', 'list', '--pool', pool, '--conn-format', format]);
  expect(list.exitCode, String(list.stderr)).toBe(0);
  const text = String(list.stdout);
  const path = join(kit.home.dir, `list-${pool}-${bought.size}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(path, text);
  const check = await kit.run(['units', 'check', '--from-file', path, '--json']);
  return { text, code: check.exitCode, stderr: String(check.stderr), results: JSON.parse(String(check.stdout) || '[]') as CheckResult[] };
}

function expectEveryUnitPassed(results: CheckResult[], units: ApiUnit[]) {
  expect(results).toHaveLength(units.length);
  for (const r of results) expect(r, JSON.stringify(r)).toMatchObject({ ok: true, status: 200, error: null });
  // One line per unit, each reached through that unit: its port, and the echo saw its address.
  const seen = results.map((r) => `${r.ip}:${r.port}:${r.exitIp}`).sort();
  expect(seen).toEqual(units.map((u) => `${u.ip}:${u.port}:${u.ip}`).sort());
}

describe('--conn-format output round-trips through units check --from-file', () => {
  it.each(['colon', 'at', 'url'])(
    'preset %s, every protocol (no-auth units included)',
    async (format) => {
      const { code, results, stderr, text } = await roundTrip(mixedPool, format);
      expect(code, `${stderr}\n${text}`).toBe(0);
      expectEveryUnitPassed(results, bought.get(mixedPool)!);
      if (format === 'url') {
        expect(text).toMatch(/^socks5:\/\/.+@/m);
        expect(text).toContain('p%2Fs%25%23%3Fx0');
      } else expect(text).toContain('p/s%#?x0&=+');
    },
    120_000,
  );

  it.each(['{user}:{pass}@{ip}:{port}', '{ip}:{port}:{user}:{pass}'])(
    'template %s',
    async (template) => {
      const { code, results, stderr, text } = await roundTrip(authPool, template);
      expect(code, `${stderr}\n${text}`).toBe(0);
      expectEveryUnitPassed(results, bought.get(authPool)!);
    },
    120_000,
  );

  it('a template that names the scheme is taken at its word: an HTTP unit written as socks5:// fails', async () => {
    const { code, results } = await roundTrip(authPool, 'socks5://{user}:{pass}@{ip}:{port}');
    expect(code).toBe(10);
    const [socks, http] = ['socks5', 'http'].map((p) => bought.get(authPool)!.find((u) => u.protocol === p)!);
    expectEveryUnitPassed(
      results.filter((r) => r.ok),
      [socks!],
    );
    expect(results.find((r) => r.port === http!.port)).toMatchObject({ ok: false, protocol: 'socks5' });
  }, 120_000);
});
