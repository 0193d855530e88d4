// `proxyctl api` like `gh api`: -X, -f/-F (typed, nested, @file), --input, -H, --paginate, -i, with
// the old `METHOD PATH --data` form kept. The scripted server records exactly what arrived; the
// sandbox shows it against the real API's paging.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import {
  type Kit,
  type RecordedRequest,
  type ScriptedServer,
  json,
  proxyctl,
  ran,
  seedUnits,
  startKit,
  startScriptedServer,
  tempHome,
} from '../helpers/index.js';

const KEY = 'sk_test_api_like_gh_000000';
const home = tempHome();
afterAll(() => home.cleanup());

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A scripted server answering every request with `answer` (default: `{"ok":true}`). */
async function serve(answer: (req: RecordedRequest, res: ServerResponse) => void = (_q, res) => json(res, 200, { ok: true })) {
  server = await startScriptedServer(answer);
  return server;
}

function cli(args: string[], extra: { input?: string } = {}) {
  return ran(
    proxyctl(args, {
      home,
      env: { PROXYCTL_BASE_URL: server!.url, PROXYCTL_API_KEY: KEY },
      stripFinalNewline: false,
      ...(extra.input !== undefined ? { input: extra.input, stdin: undefined } : {}),
    }),
  );
}

const file = (name: string, text: string) => {
  const p = join(home.dir, name);
  writeFileSync(p, text);
  return p;
};

describe('proxyctl api: what the server receives', () => {
  it('-X GET: -f and -F go to the query string', async () => {
    const s = await serve();
    const r = await cli(['api', '-X', 'GET', '/units', '-f', 'status=ACTIVE', '-F', 'pageSize=200', '-F', 'includeExpired=true']);
    expect(r).toMatchObject({ code: 0, out: '{\n  "ok": true\n}\n', err: '' });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({
      method: 'GET',
      url: '/api/reseller/v1/units?status=ACTIVE&pageSize=200&includeExpired=true',
      body: '',
    });
  });

  it('fields make it a POST with a JSON body: -F typed, -f strings, nested keys, @file', async () => {
    const s = await serve();
    const note = file('note.txt', 'from a file\n');
    const r = await cli([
      'api',
      'units/PRX-12/swap',
      '-f',
      'poolId=US-12',
      '-f',
      'count=3',
      '-F',
      'n=3',
      '-F',
      'price=-1.5e2',
      '-F',
      'ok=true',
      '-F',
      'off=false',
      '-F',
      'gone=null',
      '-F',
      'word=maybe',
      '-F',
      'allowedIps[]=203.0.113.7',
      '-F',
      'allowedIps[]=203.0.113.8',
      '-F',
      'credentials[username]=alice',
      '-f',
      'credentials[password]=007',
      '-F',
      `note=@${note}`,
    ]);
    expect(r.code, r.err).toBe(0);
    const [q] = s.requests;
    expect(q!.method).toBe('POST');
    expect(q!.url).toBe('/api/reseller/v1/units/PRX-12/swap');
    expect(q!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(q!.body)).toEqual({
      poolId: 'US-12',
      count: '3',
      credentials: { password: '007', username: 'alice' },
      n: 3,
      price: -150,
      ok: true,
      off: false,
      gone: null,
      word: 'maybe',
      allowedIps: ['203.0.113.7', '203.0.113.8'],
      note: 'from a file\n',
    });
  });

  it('-X sets the method; -F key=@- reads stdin', async () => {
    const s = await serve();
    const r = await cli(['api', '-X', 'PATCH', '/units/PRX-12', '-F', 'description=@-'], { input: 'scraper 3' });
    expect(r.code, r.err).toBe(0);
    expect(s.requests[0]).toMatchObject({ method: 'PATCH', url: '/api/reseller/v1/units/PRX-12' });
    expect(JSON.parse(s.requests[0]!.body)).toEqual({ description: 'scraper 3' });
  });

  it('--input sends the body byte for byte (a file or stdin); fields then go to the query string', async () => {
    const s = await serve();
    const body = '{ "newProtocol" : "http",\n  "allowedIps": [] }';
    let r = await cli(['api', '/units/PRX-12/change-protocol', '--input', file('body.json', body), '-f', 'dryRun=yes']);
    expect(r.code, r.err).toBe(0);
    expect(s.requests[0]).toMatchObject({ method: 'POST', url: '/api/reseller/v1/units/PRX-12/change-protocol?dryRun=yes', body });
    expect(s.requests[0]!.headers['content-type']).toBe('application/json');
    r = await cli(['api', '-X', 'PUT', '/me/proxy-username', '--input', '-', '-H', 'Content-Type: application/merge-patch+json'], {
      input: '{"proxyUsername":null}',
    });
    expect(r.code, r.err).toBe(0);
    expect(s.requests[1]).toMatchObject({ method: 'PUT', body: '{"proxyUsername":null}' });
    expect(s.requests[1]!.headers['content-type']).toBe('application/merge-patch+json');
  });

  it('-H adds headers (repeatable); the API key is still the one from the environment', async () => {
    const s = await serve();
    const r = await cli(['api', 'POST', '/units/PRX-1/swap', '--data', '{"a":1}', '-H', 'Idempotency-Key: 7d1f', '-H', 'X-Trace:  on ']);
    expect(r.code, r.err).toBe(0);
    const h = s.requests[0]!.headers;
    expect([h['idempotency-key'], h['x-trace'], h['x-api-key']]).toEqual(['7d1f', 'on', KEY]);
    expect(JSON.parse(s.requests[0]!.body)).toEqual({ a: 1 });
  });

  it('GET without fields; the METHOD PATH form keeps working, with -X agreeing or absent', async () => {
    const s = await serve();
    expect((await cli(['api', 'GET', '/me'])).code).toBe(0);
    expect((await cli(['api', 'account'])).code).toBe(0);
    expect((await cli(['api', 'delete', '/units/PRX-1', '-X', 'DELETE'])).code).toBe(0);
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      'GET /api/reseller/v1/me',
      'GET /api/reseller/v1/account',
      'DELETE /api/reseller/v1/units/PRX-1',
    ]);
  });

  it('-i prints the status line and the response headers (escaped, an echoed key redacted) before the body', async () => {
    await serve((_q, res) => {
      // Written raw: node's own writer refuses control bytes in a header, a hostile server does not.
      const head = `HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nx-request-id: req_i\r\nx-note: a\x9b2Jb\r\nx-echo: key=${KEY}\r\n`;
      res.socket!.end(Buffer.from(`${head}content-length: 11\r\nconnection: close\r\n\r\n{"ok":true}`, 'latin1'));
    });
    const r = await cli(['api', '-i', '-X', 'POST', '/webhook/test']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(
      'HTTP/1.1 201 Created\ncontent-type: application/json\nx-request-id: req_i\nx-note: a\\x9b2Jb\nx-echo: key=[REDACTED]\ncontent-length: 11\nconnection: close\n\n{\n  "ok": true\n}\n',
    );
  });

  it.each([
    [['api', '/me', '-f', 'novalue'], 'expected key=value'],
    [['api', '/me', '-F', '=v'], 'expected key=value'],
    [['api', '/me', '-F', 'a[b=1'], 'expected key=value'],
    [['api', '/units', '-F', 'a=1', '-F', 'a[b]=2'], 'clashes'],
    [['api', '/units', '-F', 'x=@/nonexistent/file'], 'cannot read -F x file'],
    [['api', '/units', '--input', '/nonexistent/body.json'], 'cannot read --input file'],
    [['api', '/units', '--input', 'a', '--data', '{}'], '--data and --input both give the body'],
    [['api', '/units', '--input', '-', '-F', 'x=@-'], 'both read stdin'],
    [['api', '/me', '-H', 'Authorization: Bearer sk_live_secret'], 'never taken from the command line'],
    [['api', '/me', '-H', 'x-api-key: sk_live_secret'], 'never taken from the command line'],
    [['api', '/me', '-H', 'sk_live_secret'], "expects 'Name: value'"],
    [['api', '/me', '-H', 'Host: example.com'], 'sets this header itself'],
    [['api', '-X', 'FETCH', '/me'], 'unsupported method'],
    [['api', 'GET', '/me', '-X', 'POST'], 'two methods'],
    [['api', 'GET'], 'a path is missing after GET'],
    [['api', '-X', 'POST', '/units', '--paginate'], '--paginate follows the pages of a GET'],
    [['api', '/units', '--paginate', '-i'], '-i (headers of each page) does not fit'],
  ])('%j exits 2 before any request', async (args, message) => {
    const s = await serve();
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).not.toContain('sk_live_secret');
    expect(r.out).toBe('');
    expect(s.requests).toHaveLength(0);
  });
});

describe('proxyctl api --paginate (scripted pages)', () => {
  const units = Array.from({ length: 5 }, (_, i) => ({ proxyRef: `PRX-${i + 1}`, extra: { n: i } }));
  /** Pages of two, as the spec's unit list answers them (pagination.hasNext). */
  const paged = (q: RecordedRequest, res: ServerResponse) => {
    const u = new URL(q.url, 'http://x');
    const page = Number(u.searchParams.get('page') ?? 1);
    const data = units.slice((page - 1) * 2, page * 2);
    json(res, 200, { data, pagination: { page, pageSize: 2, totalItems: 5, totalPages: 3, hasNext: page < 3, hasPrev: page > 1 } });
  };

  it('follows every page and prints one {"data": [...]}, exactly as one JSON document', async () => {
    const s = await serve(paged);
    const r = await cli(['api', '/units', '--paginate', '-f', 'status=ACTIVE', '-H', 'X-Trace: 1']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`${JSON.stringify({ data: units }, null, 2)}\n`);
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      'GET /api/reseller/v1/units?status=ACTIVE&page=1',
      'GET /api/reseller/v1/units?status=ACTIVE&page=2',
      'GET /api/reseller/v1/units?status=ACTIVE&page=3',
    ]);
    expect(s.requests.every((q) => q.headers['x-trace'] === '1')).toBe(true);
  });

  it('-o jsonl prints the merged document on one line; a page=N field is where it starts', async () => {
    const s = await serve(paged);
    const r = await cli(['api', '/units', '--paginate', '-F', 'page=2', '-o', 'jsonl']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`${JSON.stringify({ data: units.slice(2) })}\n`);
    expect(s.requests.map((q) => q.url)).toEqual(['/api/reseller/v1/units?page=2', '/api/reseller/v1/units?page=3']);
  });

  it('the delivery log paging (total, totalPages, no hasNext) and an empty list', async () => {
    const s = await serve((q, res) => {
      const page = Number(new URL(q.url, 'http://x').searchParams.get('page'));
      if (q.url.startsWith('/api/reseller/v1/webhook/deliveries'))
        json(res, 200, { data: [{ id: `d${page}` }], pagination: { page, pageSize: 1, total: 2, totalPages: 2 } });
      else json(res, 200, { data: [], pagination: { page, pageSize: 50, totalItems: 0, totalPages: 0, hasNext: false } });
    });
    let r = await cli(['api', '/webhook/deliveries', '--paginate']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`${JSON.stringify({ data: [{ id: 'd1' }, { id: 'd2' }] }, null, 2)}\n`);
    r = await cli(['api', '/units', '--paginate']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('{\n  "data": []\n}\n');
    expect(s.requests).toHaveLength(3);
  });

  it('a 429 on a later page waits Retry-After, as every read does, and the output is still whole', async () => {
    let limited = false;
    const s = await serve((q, res) => {
      if (q.url.includes('page=2') && !limited) {
        limited = true;
        json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '1' });
        return;
      }
      paged(q, res);
    });
    const r = await cli(['api', '/units', '--paginate']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ data: units });
    expect(s.requests.map((q) => new URL(q.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '2', '3']);
  });

  it('Ctrl-C while a page is on the wire: the document is closed with what came, exit 130', async () => {
    let sawPage2: () => void;
    const page2 = new Promise<void>((resolve) => (sawPage2 = resolve));
    await serve((q, res) => {
      if (q.url.includes('page=2')) {
        sawPage2();
        return; // never answered
      }
      paged(q, res);
    });
    const child = proxyctl(['api', '/units', '--paginate'], {
      home,
      env: { PROXYCTL_BASE_URL: server!.url, PROXYCTL_API_KEY: KEY },
    });
    await page2;
    child.kill('SIGINT');
    const r = await ran(child);
    expect(r.code).toBe(130);
    expect(JSON.parse(r.out)).toEqual({ data: units.slice(0, 2) });
  });
});

describe('proxyctl api --paginate against the sandbox', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ rateLimit: 100_000 });
    seedUnits(kit, 23);
  });
  afterAll(() => kit.close());

  it('every unit, in the order of the list, merged from pages of the asked size', async () => {
    const r = await ran(kit.run(['api', '/units', '-F', 'pageSize=5', '--paginate'], { stripFinalNewline: false }));
    expect(r.code, r.err).toBe(0);
    const listed = await ran(kit.run(['units', 'list', '--json']));
    const merged = JSON.parse(r.out) as { data: { proxyRef: string }[] };
    expect(Object.keys(merged)).toEqual(['data']);
    expect(merged.data.map((u) => u.proxyRef)).toEqual((JSON.parse(listed.out) as { proxyRef: string }[]).map((u) => u.proxyRef));
    expect(merged.data).toHaveLength(23);
  });

  it('the old form against the sandbox: POST with --data (a purchase: --yes), then GET it back with -f fields', async () => {
    const [pool] = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data.filter((p) => p.available);
    const created = await ran(
      kit.run(['api', 'POST', '/units', '--data', JSON.stringify({ poolId: pool!.poolId, period: '3h' }), '--yes']),
    );
    expect(created.code, created.err).toBe(0);
    const ref = (JSON.parse(created.out) as { proxyRef: string }).proxyRef;
    const got = await ran(kit.run(['api', `/units/${ref}`]));
    expect((JSON.parse(got.out) as { proxyRef: string }).proxyRef).toBe(ref);
    const patched = await ran(kit.run(['api', '-X', 'PATCH', `/units/${ref}`, '-f', 'description=from -f']));
    expect(patched.code, patched.err).toBe(0);
    const state = await kit.state();
    expect(state.units.find((u) => u.proxyRef === ref)).toBeDefined();
    const after = await kit.api<{ description: string }>(`/units/${ref}`);
    expect(after.description).toBe('from -f');
  });
});
