// `units list` streams pages; a page whose body is plain ASCII without a backslash skips the
// per-string escape check (src/net/plain.ts). Pages that are not, raw or \u-escaped control, C1
// and bidi characters among them, are escaped exactly as before, whichever pages come around them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyctl, rawBody, type ScriptedServer, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

const unit = (n: number, username: string, password: string) => ({
  proxyRef: `PRX-${n}`,
  poolId: 'US-1',
  ip: `203.0.113.${n}`,
  port: 10000 + n,
  protocol: 'socks5',
  credentials: { username, password },
  status: 'ACTIVE',
  expiresAt: '2030-01-01T00:00:00.000Z',
});

// Each page's body exactly as the server writes it.
const PAGES = [
  // 1: plain: the fast path.
  JSON.stringify({ data: [unit(1, 'alice', 'pw1'), unit(2, 'bob', 'pw2')], pagination: { page: 1, hasNext: true } }),
  // 2: raw DEL, C1 and bidi characters (UTF-8 in the body; JSON.stringify leaves them raw).
  JSON.stringify({ data: [unit(3, 'c\u007fd\u009b31m', 'e\u202ef\u2066g')], pagination: { page: 2, hasNext: true } }),
  // 3: the same written as \u escapes, with ESC, CR/LF and a \u-escaped C1 in a field and a key.
  '{"data":[{"proxyRef":"PRX-4","poolId":"US-1","ip":"203.0.113.4","port":10004,"protocol":"socks5",' +
    '"credentials":{"username":"u\\u001b]0;pwned\\u0007","password":"p\\r\\nerror: fake\\u009B\\u202E"},' +
    '"status":"ACTIVE","expiresAt":"2030-01-01T00:00:00.000Z","k\\u001bey":"v\\u0085"}],"pagination":{"page":3,"hasNext":true}}',
  // 4: plain again after two that were not.
  JSON.stringify({ data: [unit(5, 'eve', 'pw5')], pagination: { page: 4, hasNext: true } }),
  // 5: harmless escapes and non-ASCII: not known plain, checked, printed as they are.
  '{"data":[{"proxyRef":"PRX-6","poolId":"US-1","ip":"203.0.113.6","port":10006,"protocol":"socks5",' +
    '"credentials":{"username":"Z\\u00fcrich\\/x","password":"东京"},"status":"ACTIVE","expiresAt":"2030-01-01T00:00:00.000Z"}],' +
    '"pagination":{"page":5,"hasNext":false}}',
];

/** Anything a terminal would obey: C0 other than our own \n and \t, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let server: ScriptedServer;
let home: TempHome;

beforeAll(async () => {
  server = await startScriptedServer((req, res) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
    rawBody(res, 200, PAGES[page - 1]!);
  });
  home = tempHome();
});

afterAll(async () => {
  await server.close();
  home.cleanup();
});

const run = (args: string[]) => proxyctl(args, { home, env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_plain' } });

describe('units list over plain and non-plain pages', () => {
  it('-o conn: plain pages as they are, the others escaped', async () => {
    const r = await run(['units', 'list', '--all', '-o', 'conn']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe(
      [
        '203.0.113.1:10001:alice:pw1',
        '203.0.113.2:10002:bob:pw2',
        '203.0.113.3:10003:c\\x7fd\\x9b31m:e\\u202ef\\u2066g',
        '203.0.113.4:10004:u\\x1b]0;pwned\\x07:p\\r\\nerror: fake\\x9b\\u202e',
        '203.0.113.5:10005:eve:pw5',
        '203.0.113.6:10006:Zürich/x:东京',
      ].join('\n'),
    );
  });

  it('--conn-format url: values percent-encoded from the escaped text', async () => {
    const r = await run(['units', 'list', '--conn-format', 'url']);
    expect(r.exitCode).toBe(0);
    const lines = String(r.stdout).split('\n');
    expect(lines[0]).toBe('socks5://alice:pw1@203.0.113.1:10001');
    expect(lines[3]).toBe(
      `socks5://${encodeURIComponent('u\\x1b]0;pwned\\x07')}:${encodeURIComponent('p\\r\\nerror: fake\\x9b\\u202e')}@203.0.113.4:10004`,
    );
    expect(lines[4]).toBe('socks5://eve:pw5@203.0.113.5:10005');
  });

  it('tsv (piped) and csv: the same escaping, the unknown key included', async () => {
    const tsv = await run(['units', 'list']);
    expect(tsv.exitCode).toBe(0);
    const out = String(tsv.stdout);
    expect(out).not.toMatch(RAW);
    const rows = out.trimEnd().split('\n');
    expect(rows).toHaveLength(6);
    expect(rows[0]!.split('\t')).toEqual(['PRX-1', 'US-1', 'socks5', 'ACTIVE', expect.any(String), '203.0.113.1:10001:alice:pw1']);
    expect(rows[2]!.split('\t').at(-1)).toBe('203.0.113.3:10003:c\\x7fd\\x9b31m:e\\u202ef\\u2066g');
    expect(rows[3]!.split('\t').at(-1)).toBe('203.0.113.4:10004:u\\x1b]0;pwned\\x07:p\\r\\nerror: fake\\x9b\\u202e');
    expect(rows[5]!.split('\t').at(-1)).toBe('203.0.113.6:10006:Zürich/x:东京');

    const csv = await run(['units', 'list', '-o', 'csv']);
    expect(csv.exitCode).toBe(0);
    const lines = String(csv.stdout).trimEnd().split('\n');
    expect(String(csv.stdout)).not.toMatch(RAW);
    // The unit's fixed columns (src/units/view.ts): fields these units lack are empty cells.
    const row = (head: string, user: string, pass: string) => `${head},${user},${pass},ACTIVE,,2030-01-01T00:00:00.000Z,,,,,,,`;
    expect(lines[0]).toBe(
      'proxyRef,poolId,provider,country,state,rotation,ip,port,protocol,credentials.username,credentials.password,status,createdAt,expiresAt,expiresIn,lastSwap,lastExtended,swapCount,allowedIps,description,period',
    );
    expect(lines[1]).toBe(row('PRX-1,US-1,,,,,203.0.113.1,10001,socks5', 'alice', 'pw1'));
    expect(lines[3]).toBe(row('PRX-3,US-1,,,,,203.0.113.3,10003,socks5', 'c\\x7fd\\x9b31m', 'e\\u202ef\\u2066g'));
    expect(lines[4]).toBe(row('PRX-4,US-1,,,,,203.0.113.4,10004,socks5', 'u\\x1b]0;pwned\\x07', 'p\\r\\nerror: fake\\x9b\\u202e'));
    expect(lines[5]).toBe(row('PRX-5,US-1,,,,,203.0.113.5,10005,socks5', 'eve', 'pw5'));
  });

  it('--json keeps every value verbatim', async () => {
    const r = await run(['units', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual(PAGES.flatMap((p) => JSON.parse(p).data));
  });
});
