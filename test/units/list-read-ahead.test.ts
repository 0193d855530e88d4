// `units list` reading every page asks for the next page while the one before is still on its way
// (src/api/client.ts `readAhead`): the server prepares page n+1 while proxyctl parses and prints page
// n. The pages still print in order, `hasNext` still ends the list, a page read ahead and then not
// wanted changes nothing, and `--limit` asks for no page before it is wanted. A scripted server.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { json, outputUntil, proxyctl, startScriptedServer, tempHome, type ScriptedServer, type TempHome } from '../helpers/index.js';

const PAGE_SIZE = 3;

function unit(n: number) {
  return {
    proxyRef: `PRX-${n}`,
    poolId: 'US-1',
    ip: `10.0.0.${n}`,
    port: 10_000 + n,
    protocol: 'socks5',
    status: 'ACTIVE',
    period: '24h',
    credentials: { username: `user${n}`, password: `pass${n}` },
    createdAt: '2026-11-23T00:00:00Z',
    expiresAt: '2026-11-24T00:00:00Z',
    expiresIn: 86_400,
    lastSwap: null,
    lastExtended: null,
    swapCount: 0,
  };
}

function page(res: ServerResponse, n: number, totalPages: number, hasNext = n < totalPages) {
  const data = Array.from({ length: PAGE_SIZE }, (_, i) => unit((n - 1) * PAGE_SIZE + i + 1));
  json(res, 200, {
    data,
    pagination: { page: n, pageSize: PAGE_SIZE, totalItems: totalPages * PAGE_SIZE, totalPages, hasNext, hasPrev: n > 1 },
  });
}

const pageOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('page'));
const conn = (n: number) => `10.0.0.${n}:${10_000 + n}:user${n}:pass${n}`;

let server: ScriptedServer | undefined;
let home: TempHome | undefined;
afterEach(async () => {
  await server?.close();
  home?.cleanup();
});

function list(args: string[]) {
  home = tempHome();
  return proxyctl(['units', 'list', '--page-size', String(PAGE_SIZE), '--all', ...args], {
    home,
    env: { PROXYCTL_BASE_URL: server?.url, PROXYCTL_API_KEY: 'rk_test_read_ahead' },
  });
}

describe('units list reads ahead', () => {
  it('asks for page 3 before page 2 is answered, and prints every page in order', async () => {
    // Page 2 is held until page 3 has been asked for (or 10 s: then the order check below fails).
    let askedFor3!: () => void;
    const page3Asked = new Promise<void>((resolve) => (askedFor3 = resolve));
    const answered: number[] = [];
    server = await startScriptedServer(async (req, res) => {
      const n = pageOf(req.url);
      if (n === 3) askedFor3();
      if (n === 2) await Promise.race([page3Asked, new Promise((r) => setTimeout(r, 10_000))]);
      answered.push(n);
      page(res, n, 4);
    });
    const r = await list(['-o', 'conn']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout).trim().split('\n')).toEqual(Array.from({ length: 12 }, (_, i) => conn(i + 1)));
    const asked = server.requests.map((q) => pageOf(q.url));
    expect(asked).toEqual([1, 2, 3, 4]);
    // Page 3 was asked for while page 2 was held: it was answered first.
    expect(answered.indexOf(3)).toBeLessThan(answered.indexOf(2));
  });

  it('a list that shrank meanwhile ends where hasNext says; the page read ahead changes nothing, even failing', async () => {
    server = await startScriptedServer((req, res) => {
      const n = pageOf(req.url);
      if (n === 3) return json(res, 500, { error: { code: 'internal_error', message: 'gone' } });
      page(res, n, n === 1 ? 4 : 2);
    });
    const r = await list(['-o', 'conn']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(r.stderr).toBe('');
    expect(String(r.stdout).trim().split('\n')).toEqual(Array.from({ length: 6 }, (_, i) => conn(i + 1)));
    expect(server.requests.map((q) => pageOf(q.url))).toEqual([1, 2, 3]);
  });

  it('a page read ahead that fails when it is wanted fails the command as before, after the pages before it', async () => {
    server = await startScriptedServer((req, res) => {
      const n = pageOf(req.url);
      if (n === 3) return json(res, 500, { error: { code: 'internal_error', message: 'broken page' } });
      page(res, n, 4);
    });
    const r = await list(['-o', 'conn']);
    expect(r.exitCode).not.toBe(0);
    expect(String(r.stderr)).toContain('broken page');
    expect(String(r.stdout).trim().split('\n')).toEqual(Array.from({ length: 6 }, (_, i) => conn(i + 1)));
  });

  it('--limit asks for no page before it is wanted', async () => {
    server = await startScriptedServer((req, res) => page(res, pageOf(req.url), 4));
    const r = await list(['-o', 'conn', '--limit', '4']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout).trim().split('\n')).toEqual([1, 2, 3, 4].map(conn));
    expect(server.requests.map((q) => pageOf(q.url))).toEqual([1, 2]);
  });

  it('Ctrl-C while pages read ahead are on their way: the pages printed are whole, exit 130', async () => {
    // Pages 3 and on never come: proxyctl has printed pages 1 and 2 and waits with 3 (and 4) asked for.
    server = await startScriptedServer((req, res) => {
      const n = pageOf(req.url);
      if (n <= 2) page(res, n, 5);
    });
    const child = list(['-o', 'conn']);
    await outputUntil(child, 'stdout', (t) => t.includes(`${conn(6)}\n`));
    await new Promise<void>((resolve) => {
      const wait = () => (server!.requests.length >= 4 ? resolve() : setTimeout(wait, 20));
      wait();
    });
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(String(r.stdout).split('\n')).toEqual(Array.from({ length: 6 }, (_, i) => conn(i + 1)));
    // Pages 3 and 4 are both on their way, on two connections: either may reach the server first.
    expect(server.requests.map((q) => pageOf(q.url)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect(String(r.stderr)).not.toMatch(/at .*\.js:\d+/);
  });
});
