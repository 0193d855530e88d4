import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import fs, { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FAKE_API_KEY as KEY,
  fakeIO,
  fakeTerminal,
  runMain,
  startFakeApi,
  tempHome,
  type TempHome,
  waitForText,
} from '../helpers/index.js';
import { main } from '../../src/main.js';

let api: Awaited<ReturnType<typeof startFakeApi>>;
let cfg: TempHome;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.close());
afterEach(() => {
  cfg?.cleanup();
  api.requests.length = 0;
});

const mode = (p: string) => statSync(p).mode & 0o777;
function fresh() {
  cfg = tempHome();
  return cfg;
}
const cli = (argv: string[], opts: { env?: Record<string, string | undefined>; stdin?: string; tty?: boolean } = {}) =>
  runMain(argv, { configDir: cfg.configDir, ...opts });

describe('login and profiles', () => {
  it('login --api-key-stdin verifies with GET /account, saves 0600 in a 0700 dir, shows balance', async () => {
    fresh();
    const r = await cli(['login', '--base-url', api.url, '--api-key-stdin'], { stdin: `${KEY}\n` });
    expect(r.code).toBe(0);
    expect(r.out).toContain('120.5');
    expect(api.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /api/reseller/v1/account']);
    const file = join(cfg.configDir, 'config.json');
    expect(mode(file)).toBe(0o600);
    expect(mode(cfg.configDir)).toBe(0o700);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.profiles.default).toEqual({ baseUrl: api.url, apiKey: KEY });
    expect(saved.currentProfile).toBe('default');
    // Now commands work from the profile alone.
    const me = await cli(['account', '--json']);
    expect(me.code).toBe(0);
    expect(JSON.parse(me.out).balanceUsd).toBe(120.5);
  });

  it('a rejected key is not saved (exit 3)', async () => {
    fresh();
    const r = await cli(['login', '--base-url', api.url, '--api-key-stdin'], { stdin: 'nope-not-a-key' });
    expect(r.code).toBe(3);
    expect(r.err).toContain('nothing was saved');
    expect(
      existsSync(join(cfg.configDir, 'config.json'))
        ? JSON.parse(readFileSync(join(cfg.configDir, 'config.json'), 'utf8')).profiles
        : undefined,
    ).toBeUndefined();
  });

  it('login without a terminal and without --api-key-stdin is a usage error', async () => {
    fresh();
    const r = await cli(['login', '--base-url', api.url]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--api-key-stdin');
    expect(api.requests).toHaveLength(0);
  });

  it('profiles list masks keys; use, remove and logout manage the current profile', async () => {
    fresh();
    await cli(['login', '--base-url', api.url, '--api-key-stdin'], { stdin: KEY });
    await cli(['login', '--profile', 'work', '--base-url', api.url, '--api-key-stdin'], { stdin: KEY });
    let r = await cli(['profiles', 'list', '--json']);
    const rows = JSON.parse(r.out);
    expect(rows.map((p: { name: string; current: boolean }) => [p.name, p.current])).toEqual([
      ['default', true],
      ['work', false],
    ]);
    expect(r.out).not.toContain(KEY);
    expect(rows[0].apiKey).toBe(`${KEY.slice(0, 4)}…${KEY.slice(-4)}`);
    r = await cli(['profiles'], { tty: true });
    expect(r.out).not.toContain(KEY);
    expect(r.out).toContain('work');
    expect((await cli(['profiles', 'use', 'work'])).code).toBe(0);
    r = await cli(['profiles', 'list', '--json']);
    expect(JSON.parse(r.out).find((p: { current: boolean }) => p.current).name).toBe('work');
    expect((await cli(['profiles', 'use', 'nope'])).code).toBe(2);
    expect((await cli(['profiles', 'remove', 'default', '--yes'])).code).toBe(0);
    expect((await cli(['profiles', 'remove', 'default', '--yes'])).code).toBe(2);
    // logout forgets the key of the current profile, which stays (with its base URL) and stays current.
    expect((await cli(['logout'])).code).toBe(0);
    r = await cli(['profiles', 'list', '--json']);
    expect(
      JSON.parse(r.out).map((p: { name: string; current: boolean; apiKey: string; keyStore: unknown }) => [
        p.name,
        p.current,
        p.apiKey,
        p.keyStore,
      ]),
    ).toEqual([['work', true, '-', null]]);
    r = await cli(['me']);
    expect(r.code).toBe(3);
  });

  it('precedence: --base-url flag > PROXYCTL_BASE_URL > profile; PROXYCTL_API_KEY > profile key; --profile picks the profile', async () => {
    fresh();
    await cli(['login', '--profile', 'other', '--base-url', api.url, '--api-key-stdin'], { stdin: KEY });
    // "other" was the first profile, so it became current.
    api.requests.length = 0;
    let r = await cli(['account'], { env: { PROXYCTL_API_KEY: 'env-key-wins' } });
    expect(r.code).toBe(3);
    expect(api.requests[0]!.headers['x-api-key']).toBe('env-key-wins');
    r = await cli(['account', '--base-url', 'http://127.0.0.1:9'], { env: { PROXYCTL_BASE_URL: api.url } });
    expect(r.code).toBe(9);
    r = await cli(['account'], { env: { PROXYCTL_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(9);
    r = await cli(['--profile', 'missing', 'account']);
    expect(r.code).toBe(3);
    r = await cli(['account'], { env: { PROXYCTL_PROFILE: 'other' } });
    expect(r.code).toBe(0);
  });

  it('a config file that is not JSON is reported, not overwritten', async () => {
    fresh();
    mkdirSync(cfg.configDir, { recursive: true });
    writeFileSync(join(cfg.configDir, 'config.json'), '{"profiles": {');
    const r = await cli(['profiles', 'list']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot read the config file');
    expect(readFileSync(join(cfg.configDir, 'config.json'), 'utf8')).toBe('{"profiles": {');
  });

  it('warns when the config file is readable by others', async () => {
    fresh();
    await cli(['login', '--base-url', api.url, '--api-key-stdin'], { stdin: KEY });
    chmodSync(join(cfg.configDir, 'config.json'), 0o644);
    const r = await cli(['account']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning:.*readable by other users.*chmod 600/);
  });

  it('on a terminal, a command without a key offers to log in, saves the profile, then runs', async () => {
    fresh();
    const io = fakeIO({ tty: true, env: { PROXYCTL_CONFIG_DIR: cfg.configDir } });
    const done = main(['account', '--json'], io);
    const t = fakeTerminal(io, done);
    let from = 0;
    const answer = async (prompt: string, text: string) => {
      await waitForText(t, prompt, from);
      from = t.screen().length;
      t.key(`${text}\r`);
    };
    await answer('Log in now?', 'y');
    await answer('API base URL', api.url);
    await answer('API key:', KEY);
    expect(await done).toBe(0);
    expect(JSON.parse(io.out()).balanceUsd).toBe(120.5);
    // The hidden key is never echoed.
    expect(io.err()).not.toContain(KEY);
    const saved = JSON.parse(readFileSync(join(cfg.configDir, 'config.json'), 'utf8'));
    expect(saved.profiles.default.apiKey).toBe(KEY);
    // GET /account to verify the key, then the command's own GET /account.
    expect(api.requests.map((q) => q.url)).toEqual(['/api/reseller/v1/account', '/api/reseller/v1/account']);
  });

  it('interactive login with --base-url asks only for the hidden key', async () => {
    fresh();
    const io = fakeIO({ tty: true, env: { PROXYCTL_CONFIG_DIR: cfg.configDir } });
    const done = main(['login', '--base-url', api.url, '--profile', 'tty'], io);
    const t = fakeTerminal(io, done);
    await waitForText(t, 'API key:');
    t.key(`${KEY}\r`);
    expect(await done).toBe(0);
    expect(io.err()).not.toContain('API base URL');
    expect(io.err()).not.toContain(KEY);
    expect(io.out()).toContain('120.50 USD');
    const saved = JSON.parse(readFileSync(join(cfg.configDir, 'config.json'), 'utf8'));
    expect(saved.profiles.tty).toEqual({ baseUrl: api.url, apiKey: KEY });
  });

  it('with --no-input the same command exits 3 instead of prompting', async () => {
    fresh();
    const r = await cli(['account', '--no-input'], { tty: true });
    expect(r.code).toBe(3);
    expect(r.err).toContain('run proxyctl login or set PROXYCTL_API_KEY');
  });

  it('--profile naming a profile that does not exist says so, exit 3, no request', async () => {
    fresh();
    const before = api.requests.length;
    const saved = await cli(['login', '--base-url', api.url, '--api-key-stdin'], { stdin: `${KEY}\n` });
    expect(saved.code).toBe(0);
    const r = await cli(['account', '--profile', 'nope']);
    expect(r.code).toBe(3);
    expect(r.err).toContain('there is no profile named "nope"');
    expect(r.err).toContain('proxyctl login --profile nope');
    expect(api.requests.length).toBe(before + 1); // only the login's GET /account
  });

  it('a command does not re-read the config file for each setting it looks at', async () => {
    fresh();
    expect((await cli(['login', '--profile', 'work', '--base-url', api.url, '--api-key-stdin'], { stdin: `${KEY}\n` })).code).toBe(0);
    expect((await cli(['profiles', 'use', 'work'])).code).toBe(0);
    const file = join(cfg.configDir, 'config.json');
    const spy = vi.spyOn(fs, 'readFileSync');
    try {
      // It needs the current profile's name, then that profile's key.
      const r = await cli(['me', '--json']);
      expect(r.code).toBe(0);
      const reads = spy.mock.calls.filter(([p]) => p === file).length;
      // The store reads it once when it opens it and keeps what it read.
      expect(reads).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });
});
