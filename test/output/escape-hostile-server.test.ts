// A hostile server puts terminal control sequences in fields and error messages. Human output
// (table, tsv, csv, conn, errors, bulk progress) shows them escaped; --json keeps them verbatim.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, outputUntil, proxyctl, type ScriptedServer, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const FAKE = '\r\nerror: fake line';
const C1 = '\u009b31m\u007f';

const POOL = {
  poolId: `US-1${TITLE}`,
  provider: `acme${CLEAR}`,
  country: 'US',
  state: `NY${FAKE}`,
  rotation: null,
  available: true,
  note: `x${C1}`,
  [`odd${TITLE}key`]: `odd${CLEAR}value`,
};
const UNIT = {
  proxyRef: 'PRX-1',
  poolId: 'US-1',
  provider: `acme${CLEAR}`,
  ip: '203.0.113.1',
  port: 10001,
  protocol: 'socks5',
  credentials: { username: `user${TITLE}`, password: `pw${FAKE}` },
  status: 'ACTIVE',
  expiresAt: '2030-01-01T00:00:00.000Z',
  description: `shop${CLEAR}`,
};
const DELIVERY = {
  id: 'DLV-1',
  event: `unit.created${TITLE}`,
  status: 'FAILED',
  attempts: 6,
  responseStatus: 500,
  lastError: `receiver said${CLEAR}${FAKE}`,
  nextAttemptAt: null,
};
const BAD_MESSAGE = `pool is closed${TITLE}${CLEAR}${FAKE}`;

/** Anything a terminal would obey: C0 other than the \n and \t of our own layout, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let server: ScriptedServer;
let home: TempHome;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startScriptedServer((req, res) => {
    const path = req.url.replace(/^\/api\/reseller\/v1/, '').replace(/\?.*$/, '');
    if (req.method === 'GET' && path === '/pools') return json(res, 200, { data: [POOL], prices: { '7d': 5 } });
    if (req.method === 'GET' && path === '/units')
      return json(res, 200, { data: [UNIT], pagination: { page: 1, pageSize: 50, total: 1, hasNext: false, hasPrev: false } });
    if (req.method === 'GET' && path === '/webhook/deliveries')
      return json(res, 200, { data: [DELIVERY], pagination: { page: 1, pageSize: 100, total: 1, hasNext: false, hasPrev: false } });
    if (req.method === 'GET' && path === '/prices') return json(res, 200, { prices: { '7d': 5 } });
    if (req.method === 'GET' && path === '/account') return json(res, 200, { balanceUsd: 100 });
    if (req.method === 'GET' && path.startsWith('/units/')) return json(res, 200, { ...UNIT, proxyRef: decodeURIComponent(path.slice(7)) });
    if (req.method === 'POST' && path === '/units/PRX-1/extend')
      return json(res, 200, { proxyRef: 'PRX-1', expiresAt: '2030-01-08T00:00:00.000Z', extended: true });
    const rid = `req${TITLE}`;
    return json(res, 400, { error: { type: 'invalid_request_error', code: 'pool_closed', message: BAD_MESSAGE, requestId: rid } });
  });
  home = tempHome();
  env = { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_escape' };
});

afterAll(async () => {
  await server.close();
  home.cleanup();
});

const run = (args: string[]) => proxyctl(args, { home, env });

describe('fields from the server', () => {
  it.each([
    ['tsv (piped)', []],
    ['table', ['-o', 'table']],
    ['csv', ['-o', 'csv']],
  ])('are escaped in %s output', async (_name, flags) => {
    const r = await run(['pools', ...flags]);
    expect(r.exitCode).toBe(0);
    const out = String(r.stdout);
    expect(out).not.toMatch(RAW);
    expect(out).toContain('US-1\\x1b]0;pwned\\x07');
    expect(out).toContain('acme\\x1b[2J\\x1b[H');
    expect(out).toContain('NY\\r\\nerror: fake line');
    expect(out).toContain('x\\x9b31m\\x7f');
    // A field the CLI does not know, under a key with control characters, still shows (escaped).
    expect(out).toContain('odd\\x1b[2J\\x1b[Hvalue');
    // The CR LF in a field does not start a line of its own.
    expect(out.split('\n').some((l) => l.startsWith('error: fake line'))).toBe(false);
  });

  it('are escaped in -o conn lines', async () => {
    const r = await run(['units', 'list', '-o', 'conn']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('203.0.113.1:10001:user\\x1b]0;pwned\\x07:pw\\r\\nerror: fake line');
  });

  it('are escaped in a single object (units get) as tsv and table', async () => {
    for (const flags of [[], ['-o', 'table']]) {
      const r = await run(['units', 'get', 'PRX-1', ...flags]);
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout)).not.toMatch(RAW);
      expect(String(r.stdout)).toContain('shop\\x1b[2J\\x1b[H');
    }
  });

  it('stay verbatim with --json and -o jsonl', async () => {
    const r = await run(['pools', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual([POOL]);
    const l = await run(['units', 'list', '-o', 'jsonl']);
    expect(JSON.parse(String(l.stdout).trim())).toEqual(UNIT);
  });
});

describe('error messages from the server', () => {
  it('are escaped in the error line, request id included', async () => {
    const r = await run(['pools', 'get', 'US-9']);
    expect(r.exitCode).toBe(2);
    const err = String(r.stderr);
    expect(err).not.toMatch(RAW);
    expect(err).toContain('error: pool is closed\\x1b]0;pwned\\x07\\x1b[2J\\x1b[H\\r\\nerror: fake line');
    expect(err).toContain('request id req\\x1b]0;pwned\\x07');
    expect(err.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });

  it('stay verbatim in the --json error object', async () => {
    const r = await run(['pools', 'get', 'US-9', '--json']);
    expect(r.exitCode).toBe(2);
    const e = JSON.parse(String(r.stderr).trim()).error;
    expect(e.message).toBe(BAD_MESSAGE);
    expect(e.requestId).toBe(`req${TITLE}`);
  });

  it('are escaped in bulk progress lines and the bulk summary', async () => {
    const r = await run(['units', 'extend', 'PRX-1', 'PRX-2', '--period', '7d']);
    expect(r.exitCode).toBe(10);
    const err = String(r.stderr);
    expect(err).not.toMatch(RAW);
    expect(err).toContain('failed PRX-2: pool is closed\\x1b]0;pwned\\x07');
    expect(err.split('\n').some((l) => l.startsWith('error: fake line'))).toBe(false);
  });
});

function expectEscapedLines(out: string): void {
  expect(out).not.toMatch(RAW);
  expect(out.split('\n').some((l) => l.startsWith('error: fake line'))).toBe(false);
}

describe('webhook log --follow', () => {
  it('prints each delivery line with the server text escaped', async () => {
    const follow = proxyctl(['webhook', 'log', '--follow', '--interval', '1'], { home, env, timeout: 60_000 });
    const out = await outputUntil(follow, 'stdout', (o) => o.includes('DLV-1') && o.endsWith('\n'));
    follow.kill('SIGINT');
    expect((await follow).exitCode).toBe(0);
    expectEscapedLines(out);
    expect(out).toContain('unit.created\\x1b]0;pwned\\x07');
    expect(out).toContain('error: receiver said\\x1b[2J\\x1b[H\\r\\nerror: fake line');
  });
});

describe('webhook listen', () => {
  it('prints a received delivery with the sender text escaped', async () => {
    const listen = proxyctl(['webhook', 'listen', '--port', '0', '--secret', 's1'], { home, env: {}, timeout: 60_000 });
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      listen.stderr!.on('data', (c: Buffer) => {
        err += c.toString('utf8');
        const m = /on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
        if (m) resolve(m[1]!);
      });
      void listen.then(() => reject(new Error(`listen ended: ${err}`)));
    });
    const seen = outputUntil(listen, 'stdout', (o) => o.includes('PRX-7') && o.endsWith('\n'));
    const body = JSON.stringify({ id: 'evt_1', event: 'unit.down', data: { proxyRef: `PRX-7${TITLE}`, reason: `quota${CLEAR}${FAKE}` } });
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'x-service-signature': `sha256=${createHmac('sha256', 's1').update(body).digest('hex')}` },
    });
    expect(res.status).toBe(200);
    const out = await seen;
    listen.kill('SIGINT');
    expect((await listen).exitCode).toBe(0);
    expectEscapedLines(out);
    expect(out).toContain('PRX-7\\x1b]0;pwned\\x07');
    expect(out).toContain('quota\\x1b[2J\\x1b[H\\r\\nerror: fake line');
  });
});
