import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FAKE_API_DISABLED_KEY as DISABLED_KEY,
  FAKE_API_KEY as KEY,
  FAKE_POOLS as POOLS,
  FAKE_PRICES as PRICES,
  type FakeApi,
  json,
  runMain,
  useFakeApi,
} from '../helpers/index.js';

const fake = useFakeApi();
const cli = fake.cli;
let api: FakeApi;
beforeEach(() => {
  api = fake.api();
});

describe('account commands', () => {
  it('me --json prints the snapshot verbatim, unknown fields kept', async () => {
    const r = await cli(['me', '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body.balanceUsd).toBe(120.5);
    expect(body.loyaltyTier).toBe('gold');
    expect(api.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(api.requests[0]!.headers['user-agent']).toMatch(/^proxyctl\/\S+ node\/\S+$/);
  });

  it('me as a table shows balance, discount, units and unknown fields', async () => {
    const r = await cli(['me'], {}, true);
    expect(r.code).toBe(0);
    expect(r.out).toContain('120.50 USD');
    expect(r.out).toContain('15%');
    expect(r.out).toContain('2 active / 5 total');
    expect(r.out).toContain('loyaltyTier');
    expect(r.out).toContain('gold');
  });

  it('account piped prints tab-separated key/value lines without colour', async () => {
    const r = await cli(['account']);
    expect(r.code).toBe(0);
    // Piped: raw values, so scripts get numbers rather than "120.50 USD".
    expect(r.out).toBe('balance\t120.5\ndiscount\t15\nreseller\ttrue\n');
  });

  it('me uptime --json is the API object; the uptime budget is used', async () => {
    const r = await cli(['me', 'uptime', '--day', '7', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).units).toHaveLength(2);
    expect(api.requests[0]!.url).toBe('/api/reseller/v1/me/uptime?day=7');
  });

  it('me uptime as a table: account figure, bars and a per-unit row each', async () => {
    const r = await cli(['me', 'uptime'], {}, true);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Uptime .*█.* 97\.5%/);
    expect(r.out).toContain('PRX-1');
    expect(r.out).toContain('95.1%');
  });

  it('me uptime colours units by health when colour is on', async () => {
    const r = await cli(['me', 'uptime'], { FORCE_COLOR: '1' }, true);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching colour codes is the point
    const green = /\u001b\[32m█+ 100%/;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching colour codes is the point
    const yellow = /\u001b\[33m█+░* 95\.1%/;
    expect(r.out).toMatch(green);
    expect(r.out).toMatch(yellow);
    const plain = await cli(['me', 'uptime'], { NO_COLOR: '1' }, true);
    expect(plain.out).not.toContain('\u001b[3');
  });

  it('me uptime piped: per-unit rows on stdout, the account figure on stderr', async () => {
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const r = await cli(['me', 'uptime', '--from', from]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(2);
    expect(r.out.split('\n')[0]!.split('\t').slice(0, 2)).toEqual(['PRX-1', 'US-12']);
    expect(r.err).toContain('97.5%');
    expect(new URL(api.requests[0]!.url, 'http://x').searchParams.get('from')).toBe(from);
  });

  it('me uptime sends the window it checked: normalised to UTC, offsets applied, no offset = UTC', async () => {
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const r = await cli(['me', 'uptime', '--from', `${day(3)} 10:00`, '--to', `${day(2)}T12:00:00+0100`, '--json'], {}, false);
    expect(r.code).toBe(0);
    const q = new URL(api.requests[0]!.url, 'http://x').searchParams;
    expect(q.get('from')).toBe(`${day(3)}T10:00:00.000Z`);
    expect(q.get('to')).toBe(`${day(2)}T11:00:00.000Z`);
  });

  it.each([
    [['me', 'uptime', '--day', '0'], '--day must be'],
    [['me', 'uptime', '--day', '31'], '--day must be'],
    [['me', 'uptime', '--day', '2.5'], '--day must be'],
    [['me', 'uptime', '--from', 'yesterday'], 'ISO 8601'],
    [['me', 'uptime', '--from', '2026-11-20T00:00:00Z', '--to', '2026-11-19T00:00:00Z'], 'before'],
    [['me', 'uptime', '--from', '2026-09-01T00:00:00Z', '--to', '2026-11-01T00:00:00Z'], 'at most 30 days'],
    [['me', 'uptime', '--from', '2026-02-30', '--to', '2026-03-05'], 'ISO 8601'],
    [['me', 'uptime', '--from', '2026-04-31T10:00:00Z', '--to', '2026-05-02T00:00:00Z'], 'ISO 8601'],
    [['me', 'uptime', '--from', '2026-01-01T24:30:00Z', '--to', '2026-01-03T00:00:00Z'], 'ISO 8601'],
    [['me', 'username', 'set', 'ab'], '3 to 32'],
    [['me', 'username', 'set', 'a'.repeat(33)], '3 to 32'],
    [['me', 'username', 'set', 'bad name'], 'spaces'],
    [['me', 'username', 'set', 'user:x'], 'spaces'],
    [['me', 'username', 'set', 'user@x'], 'spaces'],
    [['pools', '--country', 'USA'], 'two-letter'],
    [['states', '--country', '1x'], 'two-letter'],
    [['pools', 'get', 'US/12'], 'not a pool id'],
    [['api', 'FETCH', '/me'], 'unsupported method'],
    [['api', 'POST', '/units', '--data', '{nope'], 'not valid JSON'],
    [['prices', '-o', 'conn'], 'not available'],
  ])('%j fails with exit 2 before any request', async (argv, message) => {
    const r = await cli(argv as string[], {}, false);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(api.requests).toHaveLength(0);
  });

  it('me username set / clear use the default path when the server has no description', async () => {
    let r = await cli(['me', 'username', 'set', 'acme_01', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ proxyUsername: 'acme_01' });
    const put = api.requests.find((q) => q.method === 'PUT')!;
    expect(put.url).toBe('/api/reseller/v1/me/proxy-username');
    expect(put.headers['content-type']).toBe('application/json');
    expect(JSON.parse(put.body)).toEqual({ proxyUsername: 'acme_01' });
    r = await cli(['me', 'username', 'clear', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ proxyUsername: null });
  });
});

describe('catalogue commands', () => {
  it('prices --json is the API object; the table has a row per period', async () => {
    let r = await cli(['prices', '--json']);
    expect(JSON.parse(r.out)).toEqual({ prices: PRICES });
    r = await cli(['prices'], {}, true);
    expect(r.code).toBe(0);
    expect(r.out).toContain('14.00 USD');
    expect(r.out.indexOf('3h')).toBeLessThan(r.out.indexOf('30d'));
  });

  it('pools --json prints the data array; filters are sent, country uppercased', async () => {
    const r = await cli(['pools', '--country', 'us', '--provider', 'Verizon', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual([POOLS[1]]);
    expect(api.requests[0]!.url).toBe('/api/reseller/v1/pools?provider=Verizon&country=US');
  });

  it('pools list as a table shows availability, prices and unknown fields', async () => {
    const r = await cli(['pools', 'list'], {}, true);
    expect(r.code).toBe(0);
    expect(r.out).toContain('US-12');
    expect(r.out).toContain('texas');
    expect(r.out).toContain('tier');
    expect(r.out).toContain('45.00');
  });

  it('an empty pool list says so on stderr and exits 0', async () => {
    const r = await cli(['pools', '--country', 'FR']);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toContain('No pools match.');
  });

  it('pools get prints one pool; an unknown pool exits 5 with code and request id', async () => {
    let r = await cli(['pools', 'get', 'DE-3', '--json']);
    expect(JSON.parse(r.out)).toEqual(POOLS[0]);
    r = await cli(['pools', 'get', 'XX-404']);
    expect(r.code).toBe(5);
    expect(r.err).toContain('pool_not_found');
    expect(r.err).toContain('req_pool_not_found');
    r = await cli(['pools', 'get', 'XX-404', '--json']);
    expect(JSON.parse(r.err).error.code).toBe('pool_not_found');
  });

  it('providers, countries and states render whatever fields arrive', async () => {
    const p = await cli(['providers', '-o', 'csv']);
    expect(p.out).toBe('provider,poolCount\nTelekom,1\nVerizon,1\n');
    const c = await cli(['countries'], {}, true);
    expect(c.out).toContain('Germany');
    const s = await cli(['states', '--country', 'us', '--json']);
    expect(JSON.parse(s.out)).toEqual([{ country: 'US', state: 'texas', poolCount: 1 }]);
    expect(api.requests.at(-1)!.url).toBe('/api/reseller/v1/states?country=US');
  });

  it('api --data reads @file and @- (stdin)', async () => {
    const file = join(fake.cfg.configDir, '..', 'body.json');
    writeFileSync(file, '{"proxyUsername":"from_file"}');
    let r = await cli(['api', 'PUT', '/me/proxy-username', '--data', `@${file}`]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ proxyUsername: 'from_file' });
    r = await runMain(['api', 'PUT', '/me/proxy-username', '--data', '@-'], {
      env: fake.env(),
      configDir: fake.cfg.configDir,
      stdin: '{"proxyUsername":"from_stdin"}',
    });
    expect(JSON.parse(r.out)).toEqual({ proxyUsername: 'from_stdin' });
    r = await cli(['api', 'PUT', '/me/proxy-username', '--data', '@/nonexistent/x.json']);
    expect(r.code).toBe(2);
  });

  it('api GET prints the body; api POST sends --data as JSON', async () => {
    let r = await cli(['api', 'GET', '/account']);
    expect(JSON.parse(r.out)).toEqual({ balanceUsd: 120.5, discountPercent: 15, resellerEnabled: true });
    r = await cli(['api', 'put', '/me/proxy-username', '--data', '{"proxyUsername":"zed_1"}']);
    expect(r.code).toBe(0);
    expect(JSON.parse(api.requests.at(-1)!.body)).toEqual({ proxyUsername: 'zed_1' });
  });
});

describe('API failures map to the contract exit codes', () => {
  it('401 exits 3, 403 exits 4', async () => {
    let r = await cli(['me'], { PROXYCTL_API_KEY: 'wrong-key' });
    expect(r.code).toBe(3);
    expect(r.err).toContain('invalid_api_key');
    r = await cli(['account'], { PROXYCTL_API_KEY: DISABLED_KEY });
    expect(r.code).toBe(4);
    expect(r.err).toContain('reseller_disabled');
  });

  it('no key and no TTY: exit 3 with the next step, no request', async () => {
    const r = await cli(['me'], { PROXYCTL_API_KEY: undefined });
    expect(r.code).toBe(3);
    expect(r.err).toContain('run proxyctl login or set PROXYCTL_API_KEY');
    expect(api.requests).toHaveLength(0);
  });

  it('plain http to a non-loopback host needs --insecure (exit 2, nothing sent)', async () => {
    const r = await cli(['me'], { PROXYCTL_BASE_URL: 'http://example.invalid' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('--insecure');
  });
});

describe('pathological servers', () => {
  it('a 503 is retried, then exits 9; a truncated body exits 9 without a stack trace', async () => {
    const { startScriptedServer } = await import('../helpers/index.js');
    let n = 0;
    const s = await startScriptedServer((req, res) => {
      n += 1;
      if (req.url.endsWith('/prices'))
        return json(res, 503, { error: { code: 'upstream_unreachable', message: 'down', requestId: 'req_503' } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"balanceUsd": 1');
    });
    try {
      let r = await cli(['prices'], { PROXYCTL_BASE_URL: s.url });
      expect(r.code).toBe(9);
      expect(n).toBe(3);
      expect(r.err).toContain('req_503');
      r = await cli(['account'], { PROXYCTL_BASE_URL: s.url });
      expect(r.code).toBe(9);
      expect(r.err).toContain('not valid JSON');
      expect(r.err).not.toContain('    at ');
    } finally {
      await s.close();
    }
  });

  it('uptime with no measurements says so instead of dumping fields', async () => {
    const { startScriptedServer } = await import('../helpers/index.js');
    const s = await startScriptedServer((_req, res) =>
      json(res, 200, { from: 'a', to: 'b', uptimePercent: null, slotsUp: 0, slotsDown: 0, slotsExcluded: 0, units: [] }),
    );
    try {
      const r = await cli(['me', 'uptime'], { PROXYCTL_BASE_URL: s.url, NO_COLOR: '1' }, true);
      expect(r.code).toBe(0);
      expect(r.out).toContain('Uptime: not measured (no units in this window)');
      expect(r.err).toContain('No units in this window.');
    } finally {
      await s.close();
    }
  });

  it('429 with a Retry-After beyond the maximum wait exits 7 saying how long', async () => {
    const { startScriptedServer } = await import('../helpers/index.js');
    const s = await startScriptedServer((_req, res) =>
      json(res, 429, { error: { code: 'rate_limited', message: 'slow down', requestId: 'req_429' } }, { 'retry-after': '3600' }),
    );
    try {
      const r = await cli(['providers'], { PROXYCTL_BASE_URL: s.url });
      expect(r.code).toBe(7);
      expect(r.err).toContain('3600s');
    } finally {
      await s.close();
    }
  });
});
