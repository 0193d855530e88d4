// `profiles list` marks the profile this very invocation would use, and says why: --profile,
// PROXYCTL_PROFILE, the stored current profile, or the built-in "default".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerAccount,
  loginWithStdin,
  proxyctl,
  type ScriptedServer,
  startScriptedServer,
  tempHome,
  type TempHome,
} from '../helpers/index.js';

const KEY = 'pk_live_PROFILES_ACTIVE_4e8a1c3b5d7f';
let home: TempHome;
let server: ScriptedServer;

beforeAll(async () => {
  home = tempHome();
  server = await startScriptedServer((_req, res) => answerAccount(res));
  for (const p of ['alpha', 'beta']) {
    const r = await loginWithStdin(home, server.url, p, KEY);
    expect(r.exitCode, String(r.stderr)).toBe(0);
  }
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

interface Row {
  name: string;
  current: boolean;
  active: boolean;
  activeBecause: string | null;
}

async function list(args: string[], env: Record<string, string> = {}): Promise<Row[]> {
  const r = await proxyctl(['profiles', 'list', '--json', ...args], { home, env });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stdout)).not.toContain(KEY);
  return JSON.parse(String(r.stdout)) as Row[];
}

const pick = (rows: Row[]) => rows.map(({ name, current, active, activeBecause }) => ({ name, current, active, activeBecause }));

describe('profiles list marks the profile in use', () => {
  it('without --profile or PROXYCTL_PROFILE: the stored current one', async () => {
    // alpha was logged in first, with no current profile yet, so it became current.
    expect(pick(await list([]))).toEqual([
      { name: 'alpha', current: true, active: true, activeBecause: 'stored' },
      { name: 'beta', current: false, active: false, activeBecause: null },
    ]);
  });

  it('--profile selects another: that one is in use, because of the flag', async () => {
    expect(pick(await list(['--profile', 'beta']))).toEqual([
      { name: 'alpha', current: true, active: false, activeBecause: null },
      { name: 'beta', current: false, active: true, activeBecause: 'flag' },
    ]);
  });

  it('PROXYCTL_PROFILE selects another: in use because of the environment; the flag still wins over it', async () => {
    expect(pick(await list([], { PROXYCTL_PROFILE: 'beta' }))).toEqual([
      { name: 'alpha', current: true, active: false, activeBecause: null },
      { name: 'beta', current: false, active: true, activeBecause: 'env' },
    ]);
    expect(pick(await list(['--profile', 'alpha'], { PROXYCTL_PROFILE: 'beta' }))).toEqual([
      { name: 'alpha', current: true, active: true, activeBecause: 'flag' },
      { name: 'beta', current: false, active: false, activeBecause: null },
    ]);
  });

  it('a selected profile that is not stored: no row is in use, and stderr says so', async () => {
    const r = await proxyctl(['profiles', 'list', '--json', '--profile', 'gamma'], { home });
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(String(r.stdout)) as Row[]).filter((x) => x.active)).toEqual([]);
    expect(String(r.stderr)).toContain('profile "gamma" (from --profile) is not stored');
  });

  it('the table marks the row in use and says why', async () => {
    const r = await proxyctl(['profiles', 'list', '--profile', 'beta'], { home });
    expect(r.exitCode).toBe(0);
    const lines = String(r.stdout).replace(/\n$/, '').split('\n');
    // Not a TTY: plain tab-separated rows (marker, name, in use, base url, api key).
    expect(lines).toHaveLength(2);
    const row = (name: string) => lines.find((l) => l.split('\t')[1] === name)!.split('\t');
    expect(row('beta').slice(0, 3)).toEqual(['*', 'beta', 'yes (--profile)']);
    expect(row('alpha').slice(0, 3)).toEqual(['', 'alpha', 'no (current; overridden by --profile)']);
    const env = await proxyctl(['profiles', 'list'], { home, env: { PROXYCTL_PROFILE: 'beta' } });
    expect(String(env.stdout)).toContain('yes (PROXYCTL_PROFILE)');
    expect(String(env.stdout)).toContain('no (current; overridden by PROXYCTL_PROFILE)');
    const stored = await proxyctl(['profiles', 'list'], { home });
    expect(String(stored.stdout)).toContain('yes (stored current)');
  });

  it('with no stored current profile, a stored "default" is in use as the built-in default', async () => {
    const h = tempHome();
    try {
      const login = (p: string) => loginWithStdin(h, server.url, p, KEY);
      expect((await login('other')).exitCode).toBe(0);
      expect((await login('default')).exitCode).toBe(0);
      expect((await proxyctl(['profiles', 'remove', 'other', '--yes'], { home: h })).exitCode).toBe(0);
      const r = await proxyctl(['profiles', 'list', '--json'], { home: h });
      expect(pick(JSON.parse(String(r.stdout)) as Row[])).toEqual([
        { name: 'default', current: true, active: true, activeBecause: 'default' },
      ]);
    } finally {
      h.cleanup();
    }
  });
});
