// API keys in the OS keyring (issue 28), tested on Linux against a real Secret Service of the
// test's own (test/helpers/secret-service.ts: a private D-Bus session with gnome-keyring), never the
// user's: the built binary is pointed at that bus through DBUS_SESSION_BUS_ADDRESS, with the temp
// HOME and config dir of tempHome(). Without a Secret Service (the bus address leads nowhere) the
// file fallback and its notice are tested; a locked keyring is locked for real, through the Secret
// Service's own Lock method: its unlock prompt has no prompter on the private bus, so it is
// dismissed, as when a user cancels the dialog.
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  configFile,
  fileMode,
  loadedBy,
  proxyctl,
  ran,
  readConfig,
  secretServiceMissing,
  startKit,
  startSecretService,
  tempHome,
  type Kit,
  type SecretService,
  type TempHome,
} from '../helpers/index.js';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

/** The files under the temp home (config, data and cache dirs, HOME) whose bytes contain `key`. */
const filesHolding = (h: TempHome, key: string) => filesUnder(h.dir).filter((f) => readFileSync(f).includes(key));

const missing = secretServiceMissing();
if (missing) describe.skip(`the OS keyring: ${missing}`, () => undefined);

describe.skipIf(missing !== undefined)('the OS keyring (a Secret Service of our own)', { timeout: 120_000 }, () => {
  let ss: SecretService;
  let kit: Kit;
  let h: TempHome;
  beforeAll(async () => {
    ss = await startSecretService();
    kit = await startKit();
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await ss?.stop();
  });
  afterEach(() => h?.cleanup());

  /** The binary on this keyring, with the key only from the profile (no PROXYCTL_API_KEY, base URL from the profile). */
  const run = (args: string[], opts: { input?: string; env?: Record<string, string | undefined> } = {}) =>
    ran(
      proxyctl(args, {
        home: h,
        env: { ...ss.env, ...opts.env },
        ...(opts.input !== undefined ? { input: opts.input, stdin: 'pipe' } : {}),
      } as Parameters<typeof proxyctl>[1]),
    );
  const login = (profile: string, ...flags: string[]) =>
    run(['login', '--profile', profile, '--base-url', kit.sb.baseUrl, '--api-key-stdin', ...flags], { input: `${kit.sb.apiKey}\n` });
  const account = (profile: string) => `${profile} (${h.configDir})`;

  it('login stores the key in the keyring only; commands use it; logout leaves the keyring empty', async () => {
    h = tempHome();
    const key = kit.sb.apiKey;
    const l = await run(['login', '--base-url', kit.sb.baseUrl, '--api-key-stdin'], { input: `${key}\n` });
    expect(l.code, l.err).toBe(0);
    // Nothing said about a file: the one line is the login's own.
    expect(l.err).toBe(`Logged in to ${kit.sb.baseUrl}; saved as profile "default".`);
    expect(readConfig(h)).toEqual({ currentProfile: 'default', profiles: { default: { baseUrl: kit.sb.baseUrl, apiKeyRef: 'keyring' } } });
    expect(await ss.entries()).toEqual([{ account: account('default'), password: key }]);

    // Commands read it from the keyring: a read, a purchase, the list it made.
    const me = await run(['account', '--json']);
    expect(me.code, me.err).toBe(0);
    expect(JSON.parse(me.out).balanceUsd).toBe(1000);
    const pool = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data.find((p) => p.available)!.poolId;
    const bought = await run(['units', 'create', '--pool', pool, '--period', '7d', '--count', '1', '--yes', '--json']);
    expect(bought.code, bought.err).toBe(0);
    const listed = await run(['units', 'list', '--json']);
    expect(JSON.parse(listed.out)).toHaveLength(1);
    expect((await kit.state()).units).toHaveLength(1);
    const traced = await run(['--debug', 'account']);
    expect(traced.code).toBe(0);
    expect(traced.err).toContain('[debug]');
    expect(traced.err).not.toContain(key);

    // In no file: not the config, the purchase records, the caches, nor anything else under the home.
    expect(filesUnder(h.dir).length).toBeGreaterThan(1);
    expect(filesHolding(h, key)).toEqual([]);

    const list = await run(['profiles', 'list', '--json']);
    expect(JSON.parse(list.out)).toEqual([
      {
        name: 'default',
        current: true,
        active: true,
        activeBecause: 'stored',
        baseUrl: kit.sb.baseUrl,
        apiKey: `${key.slice(0, 4)}…${key.slice(-4)}`,
        keyStore: 'keyring',
      },
    ]);

    const out = await run(['logout']);
    expect(out.code, out.err).toBe(0);
    expect(out.err).toBe(
      `Logged out: removed the API key of profile "default" (from the OS keyring).\nKept profile default's settings: base URL ${kit.sb.baseUrl}; proxyctl profiles remove default forgets them too.`,
    );
    expect(await ss.entries()).toEqual([]);
    expect(readConfig(h).profiles).toEqual({ default: { baseUrl: kit.sb.baseUrl } });
    expect((await run(['account'])).code).toBe(3);
  });

  it('the keyring binding is loaded for a key stored there, and not for PROXYCTL_API_KEY', async () => {
    h = tempHome();
    expect((await login('default')).code).toBe(0);
    const stored = await loadedBy(['account', '--json'], h, ss.env);
    expect(stored.exitCode, stored.stderr).toBe(0);
    expect(stored.packages.has('@napi-rs/keyring')).toBe(true);
    const fromEnv = await loadedBy(['account', '--json'], h, { ...ss.env, PROXYCTL_API_KEY: kit.sb.apiKey });
    expect(fromEnv.exitCode).toBe(0);
    expect(fromEnv.packages.has('@napi-rs/keyring')).toBe(false);
    expect((await run(['logout'])).code).toBe(0);
  });

  it('--insecure-storage keeps the key in the file, saying so; profiles migrate and a new login move it into the keyring', async () => {
    h = tempHome();
    const key = kit.sb.apiKey;
    const a = await login('a', '--insecure-storage');
    expect(a.code, a.err).toBe(0);
    expect(a.err.split('\n')[0]).toBe('Key stored in the config file, not the OS keyring (--insecure-storage).');
    const b = await login('b', '--insecure-storage');
    expect(b.code).toBe(0);
    expect(readConfig(h).profiles).toEqual({ a: { baseUrl: kit.sb.baseUrl, apiKey: key }, b: { baseUrl: kit.sb.baseUrl, apiKey: key } });
    expect(await ss.entries()).toEqual([]);
    let list = JSON.parse((await run(['profiles', 'list', '--json'])).out) as { name: string; keyStore: string }[];
    expect(list.map((r) => [r.name, r.keyStore])).toEqual([
      ['a', 'file'],
      ['b', 'file'],
    ]);

    const m = await run(['profiles', 'migrate']);
    expect(m.code, m.err).toBe(0);
    expect(m.err).toBe('Moved the API keys of "a", "b" into the OS keyring; the config file no longer holds them.');
    expect(readConfig(h).profiles).toEqual({
      a: { baseUrl: kit.sb.baseUrl, apiKeyRef: 'keyring' },
      b: { baseUrl: kit.sb.baseUrl, apiKeyRef: 'keyring' },
    });
    expect(await ss.entries()).toEqual([
      { account: account('a'), password: key },
      { account: account('b'), password: key },
    ]);
    expect(filesHolding(h, key)).toEqual([]);
    expect((await run(['--profile', 'b', 'account', '--json'])).code).toBe(0);
    const again = await run(['profiles', 'migrate']);
    expect(again.code).toBe(0);
    expect(again.err).toBe('No API keys in the config file; nothing to move.');

    // Back to the file for one profile: its keyring copy goes.
    expect((await login('b', '--insecure-storage')).code).toBe(0);
    expect((await ss.entries()).map((e) => e.account)).toEqual([account('a')]);
    list = JSON.parse((await run(['profiles', 'list', '--json'])).out);
    expect(list.map((r) => [r.name, r.keyStore])).toEqual([
      ['a', 'keyring'],
      ['b', 'file'],
    ]);
    // And a login without the flag moves it into the keyring again, saying so.
    const back = await login('b');
    expect(back.code).toBe(0);
    expect(back.err.split('\n')[0]).toBe('The key of profile "b" moved from the config file into the OS keyring.');
    expect(readConfig(h).profiles!.b).toEqual({ baseUrl: kit.sb.baseUrl, apiKeyRef: 'keyring' });

    expect((await run(['profiles', 'remove', 'a', '--yes'])).code).toBe(0);
    expect((await run(['--profile', 'b', 'logout'])).code).toBe(0);
    expect(await ss.entries()).toEqual([]);
    expect(filesHolding(h, key)).toEqual([]);
  });

  // Last: the keyring stays locked.
  it('a locked keyring is an error with the way out, never a move to the file', async () => {
    h = tempHome();
    const key = kit.sb.apiKey;
    expect((await login('default')).code).toBe(0);
    await ss.lock();

    const before = kit.sb.requestLog().length;
    const me = await run(['account']);
    expect(me.code).toBe(3);
    expect(kit.sb.requestLog().length).toBe(before);
    expect(me.err).toContain('cannot read the API key of profile "default" from the OS keyring');
    expect(me.err).toContain('(code keyring_refused)');
    expect(me.err).toContain('unlock the keyring');
    expect(me.err).toContain('PROXYCTL_API_KEY');
    const json = await run(['account', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.err).error.code).toBe('keyring_refused');

    const other = await login('other');
    expect(other.code).toBe(3);
    expect(other.err).toContain('the OS keyring refused to store the API key');
    expect(other.err).toContain('nothing was saved');
    expect(other.err).toContain('proxyctl login --insecure-storage');
    expect(Object.keys(readConfig(h).profiles!)).toEqual(['default']);
    expect(filesHolding(h, key)).toEqual([]);

    const out = await run(['logout']);
    expect(out.code).toBe(3);
    expect(out.err).toContain('the profile was kept');
    expect(readConfig(h).profiles!.default).toEqual({ baseUrl: kit.sb.baseUrl, apiKeyRef: 'keyring' });

    // The way out works: the key from the environment, or the file on purpose.
    const env = await run(['account', '--json'], { env: { PROXYCTL_API_KEY: key } });
    expect(env.code).toBe(0);
    const file = await login('other', '--insecure-storage');
    expect(file.code, file.err).toBe(0);
    for (const r of [me, json, other, out]) expect(r.err).not.toContain(key);
  });
});

describe.skipIf(process.platform !== 'linux')('no Secret Service (the session bus leads nowhere)', () => {
  let kit: Kit;
  let h: TempHome;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(() => kit.close());
  afterEach(() => h?.cleanup());

  const nowhere = () => ({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(h.dir, 'no-bus')}`, PROXYCTL_INSECURE_STORAGE: undefined });
  const run = (args: string[], input?: string) =>
    ran(
      proxyctl(args, { home: h, env: nowhere(), ...(input !== undefined ? { input, stdin: 'pipe' } : {}) } as Parameters<
        typeof proxyctl
      >[1]),
    );

  it('login falls back to the 0600 file and says so in one line; commands and logout work', async () => {
    h = tempHome();
    const l = await run(['login', '--base-url', kit.sb.baseUrl, '--api-key-stdin'], `${kit.sb.apiKey}\n`);
    expect(l.code, l.err).toBe(0);
    const lines = l.err.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^warning: no usable OS keyring \(DBus error: Failed to connect to socket .*no-bus.*\): the key is stored in the config file, readable only by you$/,
    );
    expect(lines[1]).toBe(`Logged in to ${kit.sb.baseUrl}; saved as profile "default".`);
    expect(readConfig(h).profiles).toEqual({ default: { baseUrl: kit.sb.baseUrl, apiKey: kit.sb.apiKey } });
    expect(fileMode(configFile(h))).toBe(0o600);
    expect(statSync(h.configDir).mode & 0o777).toBe(0o700);
    const list = JSON.parse((await run(['profiles', 'list', '--json'])).out) as { keyStore: string }[];
    expect(list.map((r) => r.keyStore)).toEqual(['file']);
    expect((await run(['account', '--json'])).code).toBe(0);
    // Nothing to move the keys into: said, exit 3, the file untouched.
    const m = await run(['profiles', 'migrate']);
    expect(m.code).toBe(3);
    expect(m.err).toContain('no usable OS keyring');
    expect(readConfig(h).profiles!.default!.apiKey).toBe(kit.sb.apiKey);
    expect((await run(['logout'])).code).toBe(0);
    expect(readConfig(h).profiles).toEqual({ default: { baseUrl: kit.sb.baseUrl } });
  });

  it('a profile whose key is in the keyring, run where none is reachable: exit 3 saying what to do, no request', async () => {
    h = tempHome();
    mkdirSync(h.configDir, { recursive: true, mode: 0o700 });
    writeFileSync(
      configFile(h),
      JSON.stringify({ currentProfile: 'desk', profiles: { desk: { baseUrl: kit.sb.baseUrl, apiKeyRef: 'keyring' } } }),
      { mode: 0o600 },
    );
    const before = kit.sb.requestLog().length;
    const r = await run(['account']);
    expect(r.code).toBe(3);
    expect(kit.sb.requestLog().length).toBe(before);
    expect(r.err).toContain('the API key of profile "desk" is in the OS keyring, which cannot be reached here');
    expect(r.err).toContain('(code keyring_unavailable)');
    expect(r.err).toContain('PROXYCTL_API_KEY');
    // logout still forgets the key, and says which keyring entry it could not remove.
    const out = await run(['logout']);
    expect(out.code).toBe(0);
    expect(out.err).toContain(`the key of profile "desk" stays in it (service "proxyctl", account "desk (${h.configDir})")`);
    expect(readConfig(h).profiles).toEqual({ desk: { baseUrl: kit.sb.baseUrl } });
  });

  it('PROXYCTL_INSECURE_STORAGE keeps keys in the file on purpose: login says so, migrate refuses (exit 2)', async () => {
    h = tempHome();
    const env = { PROXYCTL_INSECURE_STORAGE: '1' };
    const l = await ran(
      proxyctl(['login', '--base-url', kit.sb.baseUrl, '--api-key-stdin'], {
        home: h,
        env,
        input: `${kit.sb.apiKey}\n`,
        stdin: 'pipe',
      } as Parameters<typeof proxyctl>[1]),
    );
    expect(l.code).toBe(0);
    expect(l.err.split('\n')[0]).toBe('Key stored in the config file, not the OS keyring (PROXYCTL_INSECURE_STORAGE).');
    const m = await ran(proxyctl(['profiles', 'migrate'], { home: h, env }));
    expect(m.code).toBe(2);
    expect(m.err).toContain('PROXYCTL_INSECURE_STORAGE is set: keys stay in the config file');
  });
});
