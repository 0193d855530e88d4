// A flag that `units extend`, `swap` or `change-protocol` needs and was not given is asked for in a
// terminal; anywhere else (no TTY, --no-input, CI) it is exit 2 naming the flag to add, before a
// single request. The built binary, against a scripted server that counts what reaches it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, json, proxyctl, type ScriptedServer, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

let server: ScriptedServer;
let home: TempHome;
beforeAll(async () => {
  server = await startScriptedServer((_req, res) => json(res, 500, { error: { code: 'should_not_be_called', message: 'no' } }));
  home = tempHome();
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});
afterEach(() => {
  server.requests.length = 0;
});

const env = () => ({ PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'k' });

const CASES: [string[], string, string][] = [
  [
    ['units', 'extend', 'PRX-1'],
    'error: --period is required (3h, 12h, 24h, 7d or 30d) (code usage_error)',
    'e.g. proxyctl units extend PRX-1 --period 7d (in a terminal, leave it out to be asked)',
  ],
  [
    ['units', 'extend', 'PRX-1', 'PRX-2', '--dry-run'],
    'error: --period is required (3h, 12h, 24h, 7d or 30d)',
    'e.g. proxyctl units extend REF... --period 7d',
  ],
  [
    ['units', 'swap', 'PRX-1'],
    'error: --pool is required (the new pool id; see proxyctl pools) (code usage_error)',
    'e.g. proxyctl units swap PRX-1 --pool US-14',
  ],
  [
    ['units', 'change-protocol', 'PRX-1'],
    'error: --protocol is required (socks5, http, http_noauth or inject) (code usage_error)',
    '--protocol http',
  ],
  [['units', 'change-protocol', 'PRX-1', '--protocol', 'inject'], 'needs exactly one --allow-ip IPv4 (got 0)', ''],
  [['units', 'change-protocol', 'PRX-1', '--protocol', 'http', '--username', 'bob'], '--username and --password go together', ''],
];

describe('a missing flag off a terminal', () => {
  it.each(CASES)('%j: exit 2 naming the flag, no request', async (argv, message, hint) => {
    const r = await proxyctl(argv, { home, env: env() });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain(message);
    expect(String(r.stderr)).toContain(hint);
    expect(String(r.stderr)).not.toMatch(/required option/);
    expect(r.stdout).toBe('');
    expect(server.requests).toEqual([]);
  });

  it('on a terminal with --no-input: the same exit 2, no question, no request', async () => {
    const t = inTerminal({ ...home.env, ...env() }, ['units', 'extend', 'PRX-1', '--no-input']);
    const r = await t.child;
    expect(r.exitCode).toBe(2);
    expect(t.screen()).toContain('--period is required (3h, 12h, 24h, 7d or 30d)');
    expect(t.screen()).not.toContain('Extend PRX-1 by');
    expect(server.requests).toEqual([]);
  });

  it('on a terminal with CI set: the same exit 2 for swap', async () => {
    const t = inTerminal({ ...home.env, ...env(), CI: 'true' }, ['units', 'swap', 'PRX-1']);
    const r = await t.child;
    expect(r.exitCode).toBe(2);
    expect(t.screen()).toContain('--pool is required');
    expect(server.requests).toEqual([]);
  });

  it('--help says the flags are required and asked for in a terminal', async () => {
    for (const [verb, flag] of [
      ['extend', '--period'],
      ['swap', '--pool'],
      ['change-protocol', '--protocol'],
    ] as const) {
      const r = await proxyctl(['units', verb, '--help'], { home });
      expect(r.exitCode).toBe(0);
      const help = String(r.stdout).replace(/\s+/g, ' ');
      expect(help).toMatch(new RegExp(`${flag} <\\w+> [^-]*\\(required; asked in a terminal if left out\\)`));
    }
  });
});
