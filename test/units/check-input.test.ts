// `units check`: everything wrong with the input is exit 2 before a single connection to a proxy
// (or request to the API): the file's bad line by number, sources mixed, flags out of range, and
// no target to check against (with how to set one).
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerAccount,
  json,
  loginWithStdin,
  proxyctl,
  readConfig,
  type ScriptedServer,
  startScriptedServer,
  tempHome,
  type TempHome,
} from '../helpers/index.js';

let home: TempHome;
let api: ScriptedServer;
let proxy: Server;
let proxyPort = 0;
let connections = 0;

beforeAll(async () => {
  home = tempHome();
  api = await startScriptedServer((_req, res) => json(res, 500, { error: { code: 'should_not_be_called', message: 'no' } }));
  proxy = createServer((s) => {
    connections += 1;
    s.destroy();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyPort = (proxy.address() as { port: number }).port;
});
afterAll(async () => {
  await api.close();
  await new Promise((r) => proxy.close(r));
  home.cleanup();
});

function file(name: string, text: string): string {
  const p = join(home.dir, name);
  writeFileSync(p, text);
  return p;
}

const run = (args: string[], env: Record<string, string> = {}) => proxyctl(['units', 'check', ...args], { home, env });

describe('units check: bad input is exit 2 before any connection', () => {
  const cases: [string, () => string[], RegExp][] = [
    [
      'a bad line names its number',
      () => [
        '--from-file',
        file('bad.txt', `# list\n127.0.0.1:${proxyPort}:u:p\n\n127.0.0.1:99999:u:p\n`),
        '--target',
        'http://127.0.0.1:9/',
      ],
      /--from-file line 4: "99999" is not a port \(1 to 65535\)/,
    ],
    [
      'a line that is no format',
      () => ['--from-file', file('junk.txt', 'hello world\n'), '--target', 'http://127.0.0.1:9/'],
      /line 1: "hello world" is not a connection line/,
    ],
    [
      'a scheme proxyctl does not check',
      () => ['--from-file', file('ftp.txt', `ftp://127.0.0.1:${proxyPort}\n`), '--target', 'http://127.0.0.1:9/'],
      /line 1: the scheme "ftp" is not a proxy/,
    ],
    [
      'an empty file',
      () => ['--from-file', file('empty.txt', '# nothing\n\n'), '--target', 'http://127.0.0.1:9/'],
      /has no connection lines/,
    ],
    ['a missing file', () => ['--from-file', join(home.dir, 'nope.txt'), '--target', 'http://127.0.0.1:9/'], /cannot read --from-file/],
    ['no units named', () => [], /say which units to check: REF\.\.\., --all, --pool ID, --customer NAME or --from-file FILE/],
    [
      'two sources',
      () => ['PRX-1', '--from-file', file('one.txt', `127.0.0.1:${proxyPort}\n`)],
      /check one source at a time, not REF and --from-file/,
    ],
    ['--protocol without a file', () => ['--all', '--protocol', 'http'], /--protocol applies to --from-file lines/],
    ['--concurrency 0', () => ['--all', '--concurrency', '0'], /--concurrency must be a whole number from 1 to 256/],
    ['--concurrency 1000', () => ['--all', '--concurrency', '1000'], /--concurrency must be a whole number from 1 to 256/],
    [
      'a target that is not http(s)',
      () => ['--from-file', file('ok.txt', `127.0.0.1:${proxyPort}\n`), '--target', 'ftp://example.com/'],
      /--target must be an http:\/\/ or https:\/\/ URL/,
    ],
    ['-o conn', () => ['--all', '-o', 'conn'], /-o conn is not available for this command/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const before = connections;
    const r = await run(args(), { PROXYCTL_BASE_URL: api.url, PROXYCTL_API_KEY: 'k' });
    expect(r.exitCode, String(r.stderr)).toBe(2);
    expect(String(r.stderr)).toMatch(message);
    expect(r.stdout).toBe('');
    expect(connections).toBe(before);
    expect(api.requests.length).toBe(0);
  });

  it('with no target anywhere it says how to set one, before connecting', async () => {
    const before = connections;
    const r = await run(['--from-file', file('t.txt', `127.0.0.1:${proxyPort}:u:p\n`)]);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('error: no target to check the units against (code no_check_target)');
    expect(String(r.stderr)).toContain('proxyctl config set check-target URL');
    expect(connections).toBe(before);
  });
});

describe('config set/get/unset check-target', () => {
  it('stores the target with the profile, units check uses it, and a new login keeps it', async () => {
    const h = tempHome();
    try {
      const cfg = (args: string[]) => proxyctl(['config', ...args], { home: h });
      expect((await cfg(['get', 'check-target'])).exitCode).toBe(5);
      const bad = await cfg(['set', 'check-target', 'not a url']);
      expect(bad.exitCode).toBe(2);
      expect(String(bad.stderr)).toMatch(/check-target must be an http:\/\/ or https:\/\/ URL/);
      expect((await cfg(['set', 'colour', 'x'])).exitCode).toBe(2);
      expect((await cfg(['set', 'check-target', 'http://127.0.0.1:9/echo'])).exitCode).toBe(0);
      const got = await cfg(['get', 'check-target']);
      expect([got.exitCode, got.stdout]).toEqual([0, 'http://127.0.0.1:9/echo']);

      // The stored target is used: the proxy (a closed port) is tried, so the failure is the unit's, not the input's.
      const lines = join(h.dir, 'l.txt');
      writeFileSync(lines, `127.0.0.1:${proxyPort}:u:p\n`);
      const checked = await proxyctl(['units', 'check', '--from-file', lines, '--json'], { home: h });
      expect(checked.exitCode).toBe(10);
      expect(JSON.parse(String(checked.stdout))[0]).toMatchObject({ line: 1, ok: false, error: 'refused' });

      // A login replaces the key and base URL, never the profile's settings.
      const account = await startScriptedServer((_req, res) => answerAccount(res));
      try {
        expect((await loginWithStdin(h, account.url, undefined, 'k2')).exitCode).toBe(0);
      } finally {
        await account.close();
      }
      expect(readConfig(h).profiles?.default).toEqual({ baseUrl: account.url, apiKey: 'k2', checkTarget: 'http://127.0.0.1:9/echo' });
      expect((await cfg(['get', 'check-target'])).stdout).toBe('http://127.0.0.1:9/echo');

      expect((await cfg(['unset', 'check-target'])).exitCode).toBe(0);
      expect((await cfg(['get', 'check-target'])).exitCode).toBe(5);
    } finally {
      h.cleanup();
    }
  });
});
