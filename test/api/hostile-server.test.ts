// The built binary against a server that answers badly: empty and null bodies, the wrong shapes,
// redirects, another web server, a body that trickles, no answer at all, plain http behind an
// https URL. Every one ends with exit 9 and a message that says what came back; none is a crash
// (exit 1) and none an empty success (exit 0).
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  json,
  proxyctl,
  rawBody,
  type RecordedRequest,
  type ScriptedServer,
  apiError,
  startScriptedServer,
  tempHome,
  type TempHome,
} from '../helpers/index.js';

const KEY = 'sk_test_hostile_0123456789';
const UNIT = {
  proxyRef: 'PRX-1',
  poolId: 'US-1',
  ip: '203.0.113.1',
  port: 10001,
  protocol: 'socks5',
  credentials: { username: 'u', password: 'p' },
  status: 'ACTIVE',
  expiresAt: '2030-01-01T00:00:00.000Z',
};
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

let route: (req: RecordedRequest, res: ServerResponse) => void = (_q, res) => res.end();
let server: ScriptedServer;
let elsewhere: ScriptedServer;
let home: TempHome;
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = await startScriptedServer((req, res) => route(req, res));
  elsewhere = await startScriptedServer((_req, res) => json(res, 200, { balanceUsd: 1 }));
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  await server.close();
  await elsewhere.close();
});
afterEach(() => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  server.requests.length = 0;
  home?.cleanup();
});

async function run(args: string[], baseUrl = server.url): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  home = tempHome();
  const r = await proxyctl(args, { home, env: { PROXYCTL_BASE_URL: baseUrl, PROXYCTL_API_KEY: KEY } });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const lastJsonLine = (s: string) => JSON.parse(s.trim().split('\n').at(-1)!) as { error: Record<string, unknown> };

describe('bodies that are not what the command needs', () => {
  it('an empty 200 body is exit 9, not a crash', async () => {
    route = (_q, res) => rawBody(res, 200, '');
    const r = await run(['account']);
    expect(r.exitCode).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'error: unexpected response from the API (HTTP 200, request id req_hostile): expected the account balance, but the body is empty',
    );
    expect(r.stderr).not.toContain('bug in proxyctl');
  });

  it('a null body is exit 9, with the JSON error carrying status and request id', async () => {
    route = (_q, res) => rawBody(res, 200, 'null');
    const r = await run(['account', '--json']);
    expect(r.exitCode).toBe(9);
    expect(r.stdout).toBe('');
    expect(lastJsonLine(r.stderr).error).toEqual({
      code: 'bad_response',
      message:
        'unexpected response from the API (HTTP 200, request id req_hostile): expected the account balance, but the body is null, not an object',
      status: 200,
      requestId: 'req_hostile',
      hint: 'if it persists, report it to the API operator with the request id',
    });
  });

  it('a list whose data is not an array is exit 9, not "No units found." with exit 0', async () => {
    route = (_q, res) => rawBody(res, 200, JSON.stringify({ data: { items: [UNIT] }, pagination: { page: 1, hasNext: false } }));
    const r = await run(['units', 'list', '--all', '-o', 'csv']);
    expect(r.exitCode).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('expected a page of units, but data is an object, not a list');
  });

  it('a null item in a list is exit 9 naming the item', async () => {
    route = (_q, res) => rawBody(res, 200, JSON.stringify({ data: [UNIT, null], pagination: { page: 1, hasNext: false } }));
    const r = await run(['units', 'list']);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain('expected a page of units, but data[1] is null, not an object');
  });

  it('a unit whose proxyRef is not a string is exit 9', async () => {
    route = (_q, res) => rawBody(res, 200, JSON.stringify({ ...UNIT, proxyRef: 5 }));
    const r = await run(['units', 'get', 'PRX-1']);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain('expected a unit, but proxyRef is a number, not a string');
  });
});

describe('a purchase whose answer cannot be read', () => {
  function shop(post: (res: ServerResponse) => void) {
    route = (q, res) => {
      if (q.method === 'GET' && q.url.startsWith('/api/reseller/v1/pools/US-1'))
        return json(res, 200, { poolId: 'US-1', available: true, prices: { '7d': 2 } });
      if (q.method === 'GET' && q.url === '/api/reseller/v1/account') return json(res, 200, { balanceUsd: 100 });
      if (q.method === 'POST' && q.url === '/api/reseller/v1/units') return post(res);
      json(res, 404, { error: { code: 'not_found', message: 'no' } });
    };
  }
  const posts = () => server.requests.filter((q) => q.method === 'POST');

  it('a 201 that is not a unit is asked once more with the same key, then reported unknown with the key (--count 1)', async () => {
    shop((res) => rawBody(res, 201, JSON.stringify({ ok: true })));
    const r = await run(['units', 'create', '--pool', 'US-1', '--period', '7d', '--count', '1']);
    expect(r.exitCode).toBe(9);
    expect(r.stdout).toBe('');
    expect(posts()).toHaveLength(2);
    const keys = posts().map((q) => q.headers['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(r.stderr).toContain(
      'the purchase may or may not have gone through (unexpected response from the API (HTTP 201, request id req_hostile): expected a unit, but proxyRef is missing)',
    );
    expect(r.stderr).toMatch(new RegExp(`re-run with --idempotency-key ${UUID.source} to settle it without paying twice`));
  });

  it('an empty 201 in JSON mode: the error object has the idempotency key to settle it', async () => {
    shop((res) => rawBody(res, 201, ''));
    const r = await run(['units', 'create', '--pool', 'US-1', '--period', '7d', '--json']);
    expect(r.exitCode).toBe(9);
    expect(posts()).toHaveLength(2);
    const err = lastJsonLine(r.stderr).error;
    expect(err.code).toBe('outcome_unknown');
    expect(String(err.message)).toMatch(new RegExp(`but the body is empty\\); re-run with --idempotency-key ${UUID.source}`));
  });

  it('a 201 whose answer is readable the second time is a success, bought once', async () => {
    let n = 0;
    shop((res) => (++n === 1 ? rawBody(res, 201, '') : json(res, 201, UNIT)));
    const r = await run(['units', 'create', '--pool', 'US-1', '--period', '7d', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(UNIT);
    expect(posts()).toHaveLength(2);
    expect(posts()[1]!.headers['idempotency-key']).toBe(posts()[0]!.headers['idempotency-key']);
  });
});

describe('an extension whose answer cannot be read', () => {
  /** GET /units/PRX-1 answers `expiries` in turn (the last one repeats); POST …/extend answers `null`. */
  function unitServer(expiries: string[]) {
    let reads = 0;
    route = (q, res) => {
      if (q.url === '/api/reseller/v1/prices') return json(res, 200, { prices: { '7d': 2 } });
      if (q.url === '/api/reseller/v1/account') return json(res, 200, { balanceUsd: 100 });
      if (q.method === 'GET' && q.url === '/api/reseller/v1/units/PRX-1')
        return json(res, 200, { ...UNIT, expiresAt: expiries[Math.min(reads++, expiries.length - 1)] });
      if (q.method === 'POST' && q.url === '/api/reseller/v1/units/PRX-1/extend') return rawBody(res, 200, 'null');
      json(res, 404, { error: { code: 'not_found', message: 'no' } });
    };
  }
  const extends_ = () => server.requests.filter((q) => q.method === 'POST');

  it('is settled by reading the unit back: a later expiry is a success, sent once', async () => {
    unitServer(['2030-01-01T00:00:00.000Z', '2030-01-08T00:00:00.000Z']);
    const r = await run(['units', 'extend', 'PRX-1', '--period', '7d', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ proxyRef: 'PRX-1', expiresAt: '2030-01-08T00:00:00.000Z', extended: true });
    expect(extends_()).toHaveLength(1);
  });

  it('an unchanged expiry says nothing was charged, exit 9, sent once', async () => {
    unitServer(['2030-01-01T00:00:00.000Z']);
    const r = await run(['units', 'extend', 'PRX-1', '--period', '7d']);
    expect(r.exitCode).toBe(9);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'error: PRX-1 was not extended (unexpected response from the API (HTTP 200, request id req_hostile): expected the extend result, but the body is null, not an object); its expiry is unchanged, so nothing was charged',
    );
    expect(extends_()).toHaveLength(1);
  });
});

describe('a base URL that is not the API', () => {
  it('a redirect is not followed, says where it pointed, and the key goes nowhere else', async () => {
    route = (_q, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/api/reseller/v1/account` });
      res.end();
    };
    const r = await run(['account']);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain(
      `error: unexpected redirect from the API (HTTP 302) to ${elsewhere.url}/api/reseller/v1/account; proxyctl does not follow redirects, so the API key was not sent there`,
    );
    expect(elsewhere.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('an HTML 405 from another web server asks whether this is the API', async () => {
    route = (_q, res) => {
      res.writeHead(405, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><h1>405 Not Allowed</h1></body></html>');
    };
    const r = await run(['account']);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain(
      `error: unexpected response from the server (HTTP 405, text/html): is this the Reseller Proxy API? (base URL ${server.url})`,
    );
    expect(r.stderr).not.toContain('bug in proxyctl');
  });

  it("an API error with a status the contract does not list is the API's answer, exit 9, never 'a bug'", async () => {
    route = (_q, res) => apiError(res, 418, 'teapot', 'the API is brewing');
    const r = await run(['account']);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain('the API is brewing');
    expect(r.stderr).not.toContain('bug in proxyctl');
    const j = await run(['account', '--json']);
    expect(j.exitCode).toBe(9);
    expect(lastJsonLine(j.stdout + j.stderr).error).toMatchObject({ code: 'teapot', status: 418, requestId: 'req_teapot' });
  });

  it('an HTML 200 is the same question, in JSON mode with code not_the_api', async () => {
    route = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Welcome to nginx!</title>');
    };
    const r = await run(['units', 'list', '--json']);
    expect(r.exitCode).toBe(9);
    expect(r.stdout).toBe('');
    expect(lastJsonLine(r.stderr).error).toMatchObject({ code: 'not_the_api', status: 200 });
  });

  it('https to a plain-http server is a human message, not OpenSSL text', async () => {
    route = (_q, res) => json(res, 200, { balanceUsd: 1 });
    const https = server.url.replace(/^http:/, 'https:');
    const r = await run(['account'], https);
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain(
      `error: no secure connection to ${new URL(https).host}: the server does not speak https on this port (is it plain http?)`,
    );
    expect(r.stderr).toContain(`check the base URL (try ${server.url}); the API key was not sent`);
    expect(r.stderr).not.toMatch(/SSL routines|openssl/i);
  });
});

describe('--timeout bounds the whole request', () => {
  it('a body trickling a byte at a time is cut off at the deadline; a timed-out read is tried twice, not more', async () => {
    route = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_slow' });
      res.write('{"balanceUsd":');
      const t = setInterval(() => res.write(' '), 400);
      timers.add(t);
      res.on('close', () => clearInterval(t));
    };
    const r = await run(['account', '--timeout', '2']);
    expect(r.exitCode).toBe(9);
    expect(server.requests).toHaveLength(2);
    const m =
      /error: no complete answer from 127\.0\.0\.1:\d+ within (\d+(?:\.\d)?)s \(--timeout 2s\); gave up after 2 attempts, (\d+(?:\.\d)?)s in all/.exec(
        r.stderr,
      );
    expect(m, r.stderr).not.toBeNull();
    // The times reported are the real ones: at least the deadline each.
    expect(Number(m![1])).toBeGreaterThanOrEqual(2);
    expect(Number(m![2])).toBeGreaterThanOrEqual(4);
  });

  it('a server that never answers: two attempts, then a message with the time spent', async () => {
    route = () => {};
    const r = await run(['units', 'list', '--timeout', '1', '--json']);
    expect(r.exitCode).toBe(9);
    expect(server.requests).toHaveLength(2);
    const err = lastJsonLine(r.stderr).error;
    expect(err.code).toBe('timeout');
    expect(String(err.message)).toMatch(
      /^no complete answer from 127\.0\.0\.1:\d+ within \d+(\.\d)?s \(--timeout 1s\); gave up after 2 attempts, \d+(\.\d)?s in all$/,
    );
  });

  it('a purchase that times out is not asked more often than before, and ends with the key', async () => {
    route = (q, res) => {
      if (q.method === 'GET' && q.url.startsWith('/api/reseller/v1/pools/US-1'))
        return json(res, 200, { poolId: 'US-1', available: true, prices: { '7d': 2 } });
      if (q.method === 'GET') return json(res, 200, { balanceUsd: 100 });
      // POST: headers, then nothing more.
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write('{');
    };
    const r = await run(['units', 'create', '--pool', 'US-1', '--period', '7d', '--timeout', '1']);
    expect(r.exitCode).toBe(9);
    const posts = server.requests.filter((q) => q.method === 'POST');
    expect(new Set(posts.map((q) => q.headers['idempotency-key'])).size).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `may or may not have gone through \\(no complete answer from 127\\.0\\.0\\.1:\\d+ within [\\d.]+s \\(--timeout 1s\\)\\); re-run with --idempotency-key ${UUID.source}`,
      ),
    );
  });
});
