// `sandbox state|advance|trigger` with no --base-url and no PROXYCTL_BASE_URL talk to the sandbox
// the profile in use is logged in to (on a random port, with a key of its own, so the sandbox's
// default key would not do); the flag and the environment still win over the profile; a profile of
// a server that is not a sandbox is exit 2 before any control request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerAccount,
  call,
  json,
  loginWithStdin,
  proxyctl,
  startKit,
  startScriptedServer,
  tempHome,
  type Kit,
  type ScriptedServer,
  type TempHome,
} from '../helpers/index.js';

const KEY = 'sk_sandbox_main_of_the_profile';

let kit: Kit;
let other: Kit;
let home: TempHome;

beforeAll(async () => {
  // Two sandboxes told apart by their balance (77 is the other's, which nothing here spends); the
  // profile's has a key the default would not match.
  kit = await startKit({ apiKey: KEY, balance: 321 });
  other = await startKit({ balance: 77 });
  home = tempHome();
  const login = await loginWithStdin(home, kit.sb.baseUrl, 'sb', KEY);
  expect(login.exitCode, String(login.stderr)).toBe(0);
}, 60_000);
afterAll(async () => {
  await Promise.all([kit.close(), other.close()]);
  home.cleanup();
});

/** The binary with only the config dir: no base URL or key in the environment unless given. */
const run = (args: string[], env: Record<string, string> = {}) => proxyctl(args, { home, env });
const controlCalls = (k: Kit) => k.sb.requestLog().filter((r) => r.url.startsWith('/_sandbox/')).length;

describe("sandbox helpers use the profile's sandbox", () => {
  it('state, advance and trigger reach the sandbox of the current profile, with its key', async () => {
    const before = controlCalls(kit);
    const state = await run(['sandbox', 'state']);
    expect(state.exitCode, String(state.stderr)).toBe(0);
    expect(JSON.parse(String(state.stdout)).balanceUsd).toBe(321);

    const then = kit.sb.world.clock.now();
    const adv = await run(['sandbox', 'advance', '3600', '--json']);
    expect(adv.exitCode, String(adv.stderr)).toBe(0);
    expect(new Date(JSON.parse(String(adv.stdout)).now as string).getTime()).toBeGreaterThanOrEqual(then + 3600_000);
    expect(kit.sb.world.clock.now()).toBeGreaterThanOrEqual(then + 3600_000);

    const bought = await call(kit.sb, 'POST', '/units', {
      body: { poolId: kit.sb.world.pools.find((p) => p.available)!.poolId, period: '24h' },
    });
    const ref = (bought.body as { proxyRef: string }).proxyRef;
    const trig = await run(['sandbox', 'trigger', 'unit.down', '--unit', ref, '--json']);
    expect(trig.exitCode, String(trig.stderr)).toBe(0);
    expect(JSON.parse(String(trig.stdout))).toMatchObject({ event: 'unit.down', data: expect.objectContaining({ proxyRef: ref }) });
    expect(controlCalls(kit)).toBe(before + 3);
    expect(controlCalls(other)).toBe(0);
  }, 60_000);

  it('--profile names the profile, as for every command', async () => {
    const h = tempHome();
    try {
      expect((await loginWithStdin(h, kit.sb.baseUrl, 'sb', KEY)).exitCode).toBe(0);
      expect((await loginWithStdin(h, other.sb.baseUrl, 'default', other.sb.apiKey)).exitCode).toBe(0);
      const r = await proxyctl(['sandbox', 'state', '--profile', 'sb'], { home: h });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(JSON.parse(String(r.stdout)).balanceUsd).toBe((await kit.state()).balanceUsd);
    } finally {
      h.cleanup();
    }
  }, 60_000);

  it('--base-url, then PROXYCTL_BASE_URL, win over the profile', async () => {
    const byFlag = await run(['sandbox', 'state', '--base-url', other.sb.baseUrl]);
    expect(byFlag.exitCode, String(byFlag.stderr)).toBe(0);
    expect(JSON.parse(String(byFlag.stdout)).balanceUsd).toBe(77);
    const byEnv = await run(['sandbox', 'state'], { PROXYCTL_BASE_URL: other.sb.baseUrl });
    expect(byEnv.exitCode, String(byEnv.stderr)).toBe(0);
    expect(JSON.parse(String(byEnv.stdout)).balanceUsd).toBe(77);
    const flagOverEnv = await run(['sandbox', 'state', '--base-url', kit.sb.baseUrl], {
      PROXYCTL_BASE_URL: other.sb.baseUrl,
      PROXYCTL_API_KEY: KEY,
    });
    expect(flagOverEnv.exitCode, String(flagOverEnv.stderr)).toBe(0);
    expect(JSON.parse(String(flagOverEnv.stdout)).balanceUsd).toBe((await kit.state()).balanceUsd);
  }, 60_000);

  it('a profile whose server is not a sandbox is exit 2, and no control request reaches it', async () => {
    let api: ScriptedServer | undefined;
    const h = tempHome();
    try {
      api = await startScriptedServer((req, res) => {
        if (req.url.endsWith('/account')) return answerAccount(res);
        json(res, 404, { error: { code: 'not_found', message: 'no such path' } });
      });
      expect((await loginWithStdin(h, api.url, undefined, 'sk_live_real')).exitCode).toBe(0);
      const r = await proxyctl(['sandbox', 'trigger', 'balance.low'], { home: h });
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toContain(`error: the base URL of profile "default" (${api.url}) is not a proxyctl sandbox`);
      expect(String(r.stderr)).toContain('--base-url');
      expect(api.requests.filter((q) => q.url.includes('_sandbox'))).toEqual([]);
    } finally {
      await api?.close();
      h.cleanup();
    }
  }, 60_000);

  it("a profile whose sandbox has stopped says how to start it on the profile's port", async () => {
    const h = tempHome();
    const gone = await startKit();
    try {
      expect((await loginWithStdin(h, gone.sb.baseUrl, undefined, gone.sb.apiKey)).exitCode).toBe(0);
      const port = new URL(gone.sb.baseUrl).port;
      await gone.close();
      const r = await proxyctl(['sandbox', 'state'], { home: h });
      expect(r.exitCode).toBe(9);
      expect(String(r.stderr)).toContain(`start one: proxyctl sandbox --port ${port}`);
    } finally {
      h.cleanup();
    }
  }, 60_000);
});

describe('an address named with --base-url or PROXYCTL_BASE_URL', () => {
  it('gets the key only where the API client would send it: plain http off loopback is exit 2, nothing sent', async () => {
    const api = await startScriptedServer();
    try {
      const port = new URL(api.url).port;
      const r = await proxyctl(['sandbox', 'state', '--base-url', `http://0.0.0.0:${port}`], {
        home,
        env: { PROXYCTL_API_KEY: 'sk_live_not_for_plain_http' },
      });
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toContain('refusing to send the API key over plain http to 0.0.0.0');
      expect(String(r.stderr)).not.toContain('sk_live_not_for_plain_http');
      expect(api.requests).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
