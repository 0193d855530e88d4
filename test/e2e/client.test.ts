// End to end: the built binary against the real sandbox, for the account, catalogue, profile
// and escape-hatch commands. Every exit code they can produce, in table and JSON modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { proxyctl, type RunningSandbox, sandboxState, spawnSandbox, tempHome, type TempHome } from '../helpers/index.js';

const KEY = 'sk_e2e_DISTINCTIVE_4f9c2a7b1e3d8c6a';
const DISABLED = 'sk_e2e_DISABLED_7d1e3c9b2a';

describe('account and catalogue against the sandbox', () => {
  let home: TempHome;
  let sb: RunningSandbox;
  const outputs: string[] = [];
  const run = async (args: string[], env: Record<string, string | undefined> = {}, input?: string) => {
    const r = await proxyctl(args, {
      home,
      env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: KEY, ...env },
      ...(input !== undefined ? { input, stdin: 'pipe' } : {}),
    });
    outputs.push(String(r.stdout), String(r.stderr));
    return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
  };

  beforeAll(async () => {
    home = tempHome();
    sb = await spawnSandbox(home, ['--api-key', KEY, '--disabled-api-key', DISABLED]);
  });
  afterAll(async () => {
    await sb?.stop();
    // The key never appears in anything any command printed, including --debug traces.
    for (const o of outputs) expect(o).not.toContain(KEY);
    home?.cleanup();
  });

  it.each([
    ['me', ['email', 'balanceUsd', 'discountPercent', 'units', 'prices']],
    ['account', ['balanceUsd', 'discountPercent', 'resellerEnabled']],
    ['prices', ['prices']],
  ])('%s: JSON is the API object; the table renders', async (cmd, keys) => {
    const j = await run([cmd, '--json']);
    expect(j.code).toBe(0);
    expect(Object.keys(JSON.parse(j.out))).toEqual(expect.arrayContaining(keys));
    const t = await run([cmd]);
    expect(t.code).toBe(0);
    expect(t.out.length).toBeGreaterThan(0);
    expect(t.out).not.toContain('\u001b[');
    const boxed = await run([cmd, '-o', 'table']);
    expect(boxed.code).toBe(0);
    expect(boxed.out).toContain('│');
  });

  it.each([['pools'], ['providers'], ['countries'], ['states']])(
    '%s: JSON array of the data, tab-separated table when piped',
    async (cmd) => {
      const j = await run([cmd, '--json']);
      expect(j.code).toBe(0);
      const items = JSON.parse(j.out) as Record<string, unknown>[];
      expect(items.length).toBeGreaterThan(0);
      expect(Object.keys(items[0]!)).toContain('poolCount' in items[0]! ? 'poolCount' : 'poolId');
      const t = await run([cmd]);
      expect(t.code).toBe(0);
      expect(t.out.trim().split('\n')).toHaveLength(items.length);
      expect(t.out.split('\n')[0]).toContain('\t');
      const boxed = await run([cmd, '-o', 'table']);
      expect(boxed.code).toBe(0);
      expect(boxed.out).toContain('│');
      const csv = await run([cmd, '-o', 'csv']);
      expect(csv.out.trim().split('\n')).toHaveLength(items.length + 1);
    },
  );

  it('pools filters by country (uppercased) and pools get returns that pool', async () => {
    const all = JSON.parse((await run(['pools', '--json'])).out) as { poolId: string; country: string }[];
    const cc = all[0]!.country;
    const some = JSON.parse((await run(['pools', 'list', '--country', cc.toLowerCase(), '--json'])).out) as { country: string }[];
    expect(some.length).toBeGreaterThan(0);
    expect(some.every((p) => p.country === cc)).toBe(true);
    const one = await run(['pools', 'get', all[0]!.poolId, '--json']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.out).poolId).toBe(all[0]!.poolId);
    expect(JSON.parse(one.out).prices).toBeTypeOf('object');
    expect((await run(['pools', 'get', all[0]!.poolId])).code).toBe(0);
  });

  it('me uptime in json and table modes, with a unit probed for two hours', async () => {
    const empty = await run(['me', 'uptime', '-o', 'table']);
    expect(empty.code).toBe(0);
    expect(empty.out).toContain('not measured (no units in this window)');
    const pools = JSON.parse((await run(['pools', '--json'])).out) as { poolId: string; available: boolean }[];
    const pool = pools.find((p) => p.available)!;
    const created = await run(['api', 'POST', '/units', '--yes', '--data', JSON.stringify({ poolId: pool.poolId, period: '24h' })]);
    expect(created.code).toBe(0);
    const ref = JSON.parse(created.out).proxyRef as string;
    await fetch(`${sb.baseUrl}/_sandbox/advance`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: '{"seconds":7200}',
    });
    const j = await run(['me', 'uptime', '--day', '2', '--json']);
    expect(j.code).toBe(0);
    const body = JSON.parse(j.out);
    expect(body.uptimePercent).toBeTypeOf('number');
    expect(body.units.map((u: { proxyRef: string }) => u.proxyRef)).toContain(ref);
    const t = await run(['me', 'uptime', '-o', 'table']);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/Uptime .*█.*%/);
    expect(t.out).toContain(ref);
  });

  it('me username set / clear change the pinned username (state checked)', async () => {
    expect((await run(['me', 'username', 'set', 'e2e_login', '--json'])).code).toBe(0);
    expect((await sandboxState(sb)).proxyUsername).toBe('e2e_login');
    expect((await run(['me', 'username', 'clear'])).code).toBe(0);
    expect((await sandboxState(sb)).proxyUsername).toBeNull();
  });

  it('api and openapi print bodies', async () => {
    const a = await run(['api', 'GET', '/account']);
    expect(JSON.parse(a.out).balanceUsd).toBeTypeOf('number');
    const o = await run(['openapi']);
    expect(JSON.parse(o.out)).toHaveProperty('paths');
  });

  it('exit 3 on a rejected key, 4 on a disabled account, 5 on an unknown pool', async () => {
    let r = await run(['me'], { PROXYCTL_API_KEY: 'sk_wrong_key_000' });
    expect(r.code).toBe(3);
    expect(r.err).toContain('invalid_api_key');
    r = await run(['account', '--json'], { PROXYCTL_API_KEY: DISABLED });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.err).error.code).toBe('reseller_disabled');
    r = await run(['pools', 'get', 'ZZ-999']);
    expect(r.code).toBe(5);
    expect(r.err).toMatch(/pool_not_found.*request id \S+/);
  });

  it('bad input exits 2 and sends nothing', async () => {
    // Pointed at a port where nothing listens: any request would fail to connect (exit 9), so
    // exit 2 proves the input was refused before a request. (Comparing the sandbox's rate-limit
    // count before and after was flaky: on a loaded machine the window can roll over between.)
    for (const args of [
      ['me', 'uptime', '--day', '31'],
      ['me', 'uptime', '--from', '2026-01-10T00:00:00Z', '--to', '2026-01-01T00:00:00Z'],
      ['me', 'username', 'set', 'no@at'],
      ['pools', '--country', 'USA'],
      ['states', '--country', '9'],
      ['api', 'BREW', '/me'],
    ]) {
      const r = await run(args, { PROXYCTL_BASE_URL: 'http://127.0.0.1:9' });
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
    }
    const control = await run(['account'], { PROXYCTL_BASE_URL: 'http://127.0.0.1:9' });
    expect(control.code).toBe(9);
  });

  it('--debug traces requests with the key redacted', async () => {
    const r = await run(['--debug', 'account']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/\[debug\] ← 200 GET http:\/\/127\.0\.0\.1:\d+\/api\/reseller\/v1\/account request-id=\S+ \d+ms/);
  });

  it('login --api-key-stdin saves a 0600 file in a 0700 dir; a rejected key is not saved', async () => {
    const bad = await run(
      ['login', '--profile', 'e2e', '--base-url', sb.baseUrl, '--api-key-stdin'],
      { PROXYCTL_API_KEY: undefined },
      'sk_bad_key_1\n',
    );
    expect(bad.code).toBe(3);
    const ok = await run(
      ['login', '--profile', 'e2e', '--base-url', sb.baseUrl, '--api-key-stdin', '--json'],
      { PROXYCTL_API_KEY: undefined },
      `${KEY}\n`,
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toHaveProperty('balanceUsd');
    const file = join(home.configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home.configDir).mode & 0o777).toBe(0o700);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles)).toEqual(['e2e']);
    const list = await run(['profiles', 'list'], { PROXYCTL_API_KEY: undefined });
    expect(list.out).toContain('e2e');
    const me = await run(['me', '--json'], { PROXYCTL_API_KEY: undefined, PROXYCTL_BASE_URL: undefined });
    expect(me.code).toBe(0);
  });
});

describe('limits and failures against the sandbox', () => {
  let home: TempHome;
  afterAll(() => home?.cleanup());
  beforeAll(() => {
    home = tempHome();
  });

  it('429 with a small rate window: paced or waited out, and exit 7 when the wait is too long', async () => {
    const sb = await spawnSandbox(home, ['--rate-limit', '2', '--rate-window', '2']);
    try {
      const env = { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey };
      // Several commands in a row: each waits for its window rather than failing.
      for (let i = 0; i < 4; i++) expect((await proxyctl(['account', '--json'], { home, env })).exitCode).toBe(0);
    } finally {
      await sb.stop();
    }
    const slow = await spawnSandbox(home, ['--rate-limit', '1', '--rate-window', '3600']);
    try {
      const env = { PROXYCTL_BASE_URL: slow.baseUrl, PROXYCTL_API_KEY: slow.apiKey };
      expect((await proxyctl(['account'], { home, env })).exitCode).toBe(0);
      const r = await proxyctl(['account'], { home, env });
      expect(r.exitCode).toBe(7);
      expect(String(r.stderr)).toMatch(/rate_limited/);
      expect(String(r.stderr)).toMatch(/wait \d+s/);
    } finally {
      await slow.stop();
    }
  });

  it('5xx exits 9 after the retries', async () => {
    const sb = await spawnSandbox(home);
    try {
      await fetch(`${sb.baseUrl}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ failNext: { status: 503, count: 5, code: 'upstream_unreachable' } }),
      });
      const r = await proxyctl(['prices'], { home, env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey } });
      expect(r.exitCode).toBe(9);
      expect(String(r.stderr)).toContain('upstream_unreachable');
    } finally {
      await sb.stop();
    }
  });

  it('discovery: with --alt-paths the pin goes to the path openapi.json declares', async () => {
    const sb = await spawnSandbox(home, ['--alt-paths']);
    try {
      const env = { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey };
      const r = await proxyctl(['--debug', 'me', 'username', 'set', 'alt_login'], { home, env });
      expect(r.exitCode).toBe(0);
      expect(String(r.stderr)).toMatch(/GET \S+\/api\/reseller\/v1\/openapi\.json/);
      expect(String(r.stderr)).not.toMatch(/PUT \S+\/me\/proxy-username/);
      expect((await sandboxState(sb)).proxyUsername).toBe('alt_login');
      // The second run uses the cache in the config dir.
      const again = await proxyctl(['--debug', 'me', 'username', 'clear'], { home, env });
      expect(again.exitCode).toBe(0);
      expect(String(again.stderr)).not.toContain('openapi.json');
      expect((await sandboxState(sb)).proxyUsername).toBeNull();
    } finally {
      await sb.stop();
    }
  });
});
