// Every bad flag fails with exit 2 and a clear message before a single request is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO, fakeTerminal, json, type ScriptedServer, startScriptedServer, waitForText } from '../helpers/index.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((_req, res) => json(res, 500, { error: { code: 'should_not_be_called', message: 'no' } }));
});
afterAll(() => server.close());

const CASES: [string[], RegExp][] = [
  [['units', 'create', '--pool', 'US-1', '--period', '2d'], /invalid period "2d" \(use one of: 3h, 12h, 24h, 7d, 30d\)/],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--protocol', 'ftp'], /invalid protocol "ftp"/],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--protocol', 'inject'], /exactly one --allow-ip/],
  [
    ['units', 'create', '--pool', 'US-1', '--period', '7d', '--protocol', 'inject', '--allow-ip', '1.2.3.4', '--allow-ip', '1.2.3.5'],
    /exactly one --allow-ip IPv4 \(got 2\)/,
  ],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--protocol', 'http_noauth', '--allow-ip', '1.2.3.999'], /IPv4 address/],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--allow-ip', '1.2.3.4'], /only to the http_noauth/],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--username', 'bob'], /--username and --password go together/],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--count', '501'], /--count must be a whole number from 1 to 500/],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--count', '0'], /--count/],
  [['units', 'create', '--pool', 'US-1', '--period', '7d', '--idempotency-key', 'abc'], /--idempotency-key must be a UUID/],
  [['units', 'create', '--period', '7d'], /--pool and --period are required/],
  [
    ['units', 'create', '--pool', 'US-1', '--period', '7d', '--dry-run', '-o', 'conn'],
    /--dry-run prints a quote, not units: -o conn is not available with it/,
  ],
  [['units', 'list', '--page-size', '201'], /--page-size must be a whole number from 1 to 200/],
  [['units', 'list', '--page', '0'], /--page must be/],
  [['units', 'list', '--status', 'gone'], /--status must be one of ACTIVE, EXPIRED, RELEASED/],
  [['units', 'list', '--expiring-within', '1.5'], /--expiring-within/],
  [['units', 'extend', 'PRX-1', '--period', '1y'], /invalid period/],
  [['units', 'change-protocol', 'PRX-1', '--protocol', 'inject'], /change-protocol with http_noauth needs exactly one --allow-ip/],
  [['units', 'change-protocol', 'PRX-1', '--protocol', 'socks5', '--password', 'x'], /go together/],
  [['units', 'modify', 'PRX-1'], /nothing to change/],
  [['units', 'modify', 'PRX-1', '--allow-ip', 'example.com'], /IPv4/],
  [['units', 'get', 'PRX-1', '-o', 'conn', '--json'], /conflicts/],
  [['units', 'get', `PRX-${'9'.repeat(70)}`], /invalid unit reference "PRX-999999999999…" \(74 characters; expected e.g. PRX-123\)/],
  [['units', 'usage', 'PRX-1\u0007'], /invalid unit reference/],
  [['units', 'extend', 'PRX-1', '--period', '7d', '-o', 'conn'], /-o conn is not available/],
  [['units', 'release', 'PRX-1', 'PRX-2'], /refusing to release PRX-1, PRX-2 without confirmation/],
];

describe('validation before any request', () => {
  it.each(CASES)('%j', async (argv, message) => {
    const before = server.requests.length;
    const io = fakeIO({ env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'k' } });
    const code = await main(argv, io);
    expect(code).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.out()).toBe('');
    expect(server.requests.length).toBe(before);
  });

  it('release asks on a terminal; answering no sends nothing and exits 2 (a refused confirmation)', async () => {
    const io = fakeIO({ tty: true, env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'k' } });
    // Like process.stderr, which a pipe never ends (inquirer pipes its output stream into it).
    io.stderr.end = (() => io.stderr) as typeof io.stderr.end;
    const run = main(['units', 'release', 'PRX-7'], io);
    const t = fakeTerminal(io, run);
    await waitForText(t, 'Release PRX-7?');
    t.key('n\n');
    expect(await run).toBe(2);
    expect(io.err()).toContain('nothing released: the release was not confirmed');
    expect(io.out()).toBe('');
    expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});
