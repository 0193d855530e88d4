// What a command loads is what it costs to start: these tests record every module the built
// binary runs (test/helpers/loaded-modules.ts: the files Node loads, and the modules inside the
// bundle run, from V8's coverage). `--help`/`--version` must load none of the heavy dependencies nor
// the config store; a one-request command must load no prompts, tables or spinners it does not use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnit, loadedBy, loginWithStdin, pickPools, startKit, tempHome, type Kit, type Loaded } from '../helpers/index.js';

/** Modules of src/api/ every command may run: the flags' enums. */
const LIGHT_API = ['src/api/enums.ts'];

const HEAVY = ['undici', 'chalk', 'cli-table3', 'ora', 'proper-lockfile', 'write-file-atomic', 'jq-wasm', '@napi-rs/keyring', 'pg'];
/** The OS keyring's native binding: only a key stored there loads it (test/config/keyring.test.ts shows that it does). */
const KEYRING = '@napi-rs/keyring';
const UNUSED_BY_ONE_REQUEST = ['cli-table3', 'ora', 'cli-spinners', 'jq-wasm'];

function prompts(l: Loaded): string[] {
  return [...l.packages].filter((p) => p.startsWith('@inquirer/'));
}

describe('--help and --version', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  for (const args of [['--version'], ['--version', '--json'], ['--help'], ['units', '--help'], ['units', 'list', '--help']]) {
    it(`proxyctl ${args.join(' ')} loads no HTTP client, prompts, tables, spinners, colours or config store`, async () => {
      const l = await loadedBy(args, home);
      expect(l.exitCode).toBe(0);
      // --version and --help alone are answered before the CLI loads (--help from dist/help.txt,
      // see help-fast-path.test.ts); other help needs commander (and the recording works).
      if (args.length === 1) {
        expect(l.bundleRan).toBe(false);
        expect([...l.packages]).toEqual([]);
      } else expect(l.packages.has('commander')).toBe(true);
      expect(HEAVY.filter((p) => l.packages.has(p))).toEqual([]);
      expect(prompts(l)).toEqual([]);
      // The API's enums name the flags' choices; nothing else of the client or the config store.
      const unwanted = (s: string) => s.startsWith('src/config/') || (s.startsWith('src/api/') && !LIGHT_API.includes(s));
      expect([...l.sources].filter(unwanted)).toEqual([]);
    });
  }
});

describe('a one-request command', () => {
  let kit: Kit;
  let unitId: string;
  beforeAll(async () => {
    kit = await startKit();
    unitId = await createUnit(kit.sb);
  });
  afterAll(() => kit.close());

  const env = () => ({ PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey });

  for (const args of [
    ['account', '--json'],
    ['units', 'list', '--json'],
    ['units', 'list', '-o', 'conn'],
    ['units', 'get', '<id>', '--json'],
  ]) {
    it(`proxyctl ${args.join(' ')} loads undici but no prompts, tables or spinners`, async () => {
      const l = await loadedBy(
        args.map((a) => (a === '<id>' ? unitId : a)),
        kit.home,
        env(),
      );
      expect(l.exitCode).toBe(0);
      expect(l.stdout).not.toBe('');
      expect(l.packages.has('undici')).toBe(true); // the recording sees CommonJS too
      expect(UNUSED_BY_ONE_REQUEST.filter((p) => l.packages.has(p))).toEqual([]);
      expect(prompts(l)).toEqual([]);
      // Reading the API key from the environment writes nothing: no lock, no atomic writer; nor asks the keyring.
      expect(['proper-lockfile', 'write-file-atomic', KEYRING].filter((p) => l.packages.has(p))).toEqual([]);
      // Output into a pipe is not coloured: no chalk. Plain HTTP/1.1: no HTTP/2 client, no TLS.
      expect(l.packages.has('chalk')).toBe(false);
      expect(['node:http2', 'node:tls'].filter((b) => l.builtins.has(b))).toEqual([]);
      expect(l.modules.has('node_modules/undici/lib/dispatcher/client.js')).toBe(true);
      expect(l.modules.has('node_modules/undici/lib/dispatcher/client-h2.js')).toBe(false);
    });
  }

  it('a purchase without a shared ledger (no ledger-url) loads neither node-postgres nor the shared-ledger module', async () => {
    // A sandbox of its own: the unit it buys must not show in the other tests' lists.
    const own = await startKit();
    const [pool] = await pickPools(own);
    const l = await loadedBy(['units', 'create', '--pool', pool!.poolId, '--period', '7d', '--json'], own.home, {
      PROXYCTL_BASE_URL: own.sb.baseUrl,
      PROXYCTL_API_KEY: own.sb.apiKey,
    }).finally(() => own.close());
    expect(l.exitCode).toBe(0);
    // The recording sees the ledger that entered the debit, and nothing of the database's.
    expect(l.sources.has('src/ledger/journal.ts')).toBe(true);
    expect(['pg', 'pg-pool', 'pg-protocol'].filter((p) => l.packages.has(p))).toEqual([]);
    expect([...l.sources].filter((s) => s.startsWith('src/ledger/pg/'))).toEqual([]);
  });

  it('--jq loads jq (jq-wasm) and prints what it makes of the JSON; --jq alone with --help does not', async () => {
    const l = await loadedBy(['units', 'list', '--jq', '.[].proxyRef'], kit.home, env());
    expect(l.exitCode).toBe(0);
    expect(l.stdout).toBe(unitId);
    expect(l.packages.has('jq-wasm')).toBe(true);
    const help = await loadedBy(['units', 'list', '--jq', '.[]', '--help'], kit.home, env());
    expect(help.exitCode).toBe(0);
    expect(help.packages.has('jq-wasm')).toBe(false);
  });

  it('a key kept in the config file (no keyring here) is read without the keyring binding', async () => {
    const login = await loadedBy(['login', '--profile', 'file', '--base-url', kit.sb.baseUrl, '--api-key-stdin'], kit.home, {
      PROXYCTL_API_KEY: undefined,
    });
    // No stdin: refused before any key is read or stored.
    expect(login.exitCode).toBe(2);
    expect(login.packages.has(KEYRING)).toBe(false);
    const saved = await loginWithStdin(kit.home, kit.sb.baseUrl, 'file', kit.sb.apiKey);
    expect(saved.exitCode, String(saved.stderr)).toBe(0);
    const l = await loadedBy(['--profile', 'file', 'account', '--json'], kit.home);
    expect(l.exitCode, l.stderr).toBe(0);
    expect(l.packages.has('undici')).toBe(true);
    expect(l.packages.has(KEYRING)).toBe(false);
  });

  it('with colour forced, chalk is loaded before the command runs', async () => {
    const l = await loadedBy(['units', 'list'], kit.home, { ...env(), FORCE_COLOR: '1' });
    expect(l.exitCode).toBe(0);
    expect(l.packages.has('chalk')).toBe(true);
  });
});

describe('proxyctl sandbox', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('serves until Ctrl-C without loading the keyring binding, prompts or the config store', async () => {
    const l = await loadedBy(['sandbox', '--port', '0'], home, {}, { interruptWhen: /listening on http/ });
    expect(l.stdout).toMatch(/listening on http/);
    expect(l.bundleRan).toBe(true);
    expect(l.packages.has(KEYRING)).toBe(false);
    expect(prompts(l)).toEqual([]);
    expect([...l.sources].filter((s) => s.startsWith('src/config/') || s.startsWith('src/context/credentials'))).toEqual([]);
  });
});

describe('TAB: proxyctl __complete', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
    expect((await kit.run(['pools', '--json'])).exitCode).toBe(0);
  }, 300_000);
  afterAll(() => kit.close());

  // Each with what it offers: pool ids from the cache (filled by `pools`), no units or profiles yet, a verb.
  for (const [words, offered] of [
    [['units', 'create', '--pool', ''], /^US-\d+$/m],
    [['units', 'get', ''], /^:4$/],
    [['profiles', 'use', ''], /^:4$/],
    [['units', 'l'], /^list\t/],
  ] as const) {
    it(`proxyctl __complete ${words.join(' ')} loads no HTTP client, API client, prompts, tables or config writers`, async () => {
      const l = await loadedBy(['__complete', ...words], kit.home, { PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey });
      expect(l.exitCode).toBe(0);
      expect(l.stdout).toMatch(offered);
      expect(l.stdout).toMatch(/:4$/);
      expect(HEAVY.filter((p) => l.packages.has(p))).toEqual([]);
      expect(prompts(l)).toEqual([]);
      // The values cache and the config store's path helpers; nothing of the API client or the context's wiring.
      const unwanted = (s: string) =>
        (s.startsWith('src/api/') && !LIGHT_API.includes(s)) || s.startsWith('src/context/api') || s.startsWith('src/context/client');
      expect([...l.sources].filter(unwanted)).toEqual([]);
    });
  }
});
