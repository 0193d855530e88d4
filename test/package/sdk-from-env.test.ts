// ResellerClient.fromEnv() as code uses it: a separate Node process importing the built package entry,
// configured only by the environment variables the CLI reads (PROXYCTL_API_KEY, PROXYCTL_BASE_URL,
// PROXYCTL_DEBUG), overrides winning over them; and a failed batch item's error is one of the SDK's
// classes (instanceof works, code and message are there), never an unknown value.
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, cleanEnv, type Kit, NODE, pickPools, startKit } from '../helpers/index.js';

const SDK = fileURLToPath(new URL('../../dist/sdk.js', import.meta.url));

/** Runs `body` as an ES module with only `env` (beside PATH and HOME) in its environment; prints what it logs. */
function script(body: string, env: Record<string, string | undefined>, args: string[] = []) {
  const code = `import * as sdk from ${JSON.stringify(SDK)};\nconst { ResellerClient } = sdk;\n${body}`;
  return execa(NODE, ['--input-type=module', '-e', code, ...args], {
    env: cleanEnv({ PROXYCTL_API_KEY: undefined, PROXYCTL_BASE_URL: undefined, PROXYCTL_DEBUG: undefined, ...env }),
    extendEnv: true,
    reject: false,
    timeout: 60_000,
  });
}

const thrown = `catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message, hint: e.hint })); }`;

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit?.close());

describe('ResellerClient.fromEnv', () => {
  it('takes the key and base URL from PROXYCTL_API_KEY and PROXYCTL_BASE_URL', async () => {
    const r = await script('console.log(JSON.stringify({ balance: await ResellerClient.fromEnv().balance() }));', {
      PROXYCTL_API_KEY: kit.sb.apiKey,
      PROXYCTL_BASE_URL: kit.sb.baseUrl,
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ balance: (await kit.state()).balanceUsd });
  });

  it('overrides win over the environment, as the CLI flags do; overrides.env replaces the process environment', async () => {
    // The environment names a disabled key and a dead port; the overrides name the working ones.
    const env = { PROXYCTL_API_KEY: kit.sb.disabledApiKey, PROXYCTL_BASE_URL: 'http://127.0.0.1:9' };
    const r = await script(
      `const [baseUrl, apiKey] = process.argv.slice(1);
const a = await ResellerClient.fromEnv({ apiKey, baseUrl }).balance();
const b = await ResellerClient.fromEnv({ env: { PROXYCTL_API_KEY: apiKey, PROXYCTL_BASE_URL: baseUrl } }).balance();
let refused;
try { await ResellerClient.fromEnv({ baseUrl }).balance(); } catch (e) { refused = { name: e.name, status: e.status }; }
console.log(JSON.stringify({ a, b, refused }));`,
      env,
      [kit.sb.baseUrl, kit.sb.apiKey],
    );
    expect(r.stderr).toBe('');
    const balance = (await kit.state()).balanceUsd;
    // Without a key among the overrides the environment's (disabled) one is used: the server refuses it (403).
    expect(JSON.parse(r.stdout)).toEqual({ a: balance, b: balance, refused: { name: 'ApiError', status: 403 } });
  });

  it('no key or no base URL (unset or empty) throws before any request, never printing a key', async () => {
    const before = kit.sb.requestLog().length;
    const r = await script(
      `for (const env of [{ PROXYCTL_BASE_URL: process.argv[1] }, { PROXYCTL_BASE_URL: process.argv[1], PROXYCTL_API_KEY: '' }, { PROXYCTL_API_KEY: 'sk_secret_1234' }]) {
  try { ResellerClient.fromEnv({ env }); console.log('built'); } ${thrown}
}`,
      {},
      [kit.sb.baseUrl],
    );
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n').map((l) => JSON.parse(l));
    const missingKey = {
      name: 'AuthMissingError',
      code: 'api_key_missing',
      message: 'no API key: PROXYCTL_API_KEY is not set',
      hint: 'set PROXYCTL_API_KEY, or pass apiKey',
    };
    expect(lines).toEqual([
      missingKey,
      missingKey,
      {
        name: 'UsageError',
        code: 'usage_error',
        message: 'no base URL: PROXYCTL_BASE_URL is not set',
        hint: 'set PROXYCTL_BASE_URL, or pass baseUrl',
      },
    ]);
    expect(r.stdout + r.stderr).not.toContain('sk_secret_1234');
    expect(kit.sb.requestLog()).toHaveLength(before);
  });

  it('PROXYCTL_DEBUG=1 traces each request on stderr, without the key', async () => {
    const env = { PROXYCTL_API_KEY: kit.sb.apiKey, PROXYCTL_BASE_URL: kit.sb.baseUrl };
    const traced = await script('await ResellerClient.fromEnv().balance();', { ...env, PROXYCTL_DEBUG: '1' });
    expect(traced.exitCode).toBe(0);
    expect(traced.stderr).toMatch(/^\[debug\] → GET http:\/\/127\.0\.0\.1:\d+\/api\/reseller\/v1\/account/m);
    expect(traced.stderr).not.toContain(kit.sb.apiKey);
    const quiet = await script('await ResellerClient.fromEnv().balance();', { ...env, PROXYCTL_DEBUG: '0' });
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});

describe("a failed batch item's error", () => {
  it('is one of the exported classes: an ApiError with status 402 when the balance runs out mid-batch', async () => {
    const [pool] = await pickPools(kit);
    const price = pool!.prices['7d']!;
    // Room for exactly one unit.
    await kit.control('/balance', { balanceUsd: price * 1.5 });
    const r = await script(
      `const client = ResellerClient.fromEnv();
const r = await sdk.createUnitsSafely(client, { poolId: process.argv[1], period: '7d', count: 2, concurrency: 1 });
console.log(JSON.stringify(r.items.map((i) => i.ok ? { ok: true } : {
  ok: false, cliError: i.error instanceof sdk.CliError, apiError: i.error instanceof sdk.ApiError,
  name: i.error.name, code: i.error.code, status: i.error.status, hasMessage: typeof i.error.message === 'string' })));`,
      { PROXYCTL_API_KEY: kit.sb.apiKey, PROXYCTL_BASE_URL: kit.sb.baseUrl },
      [pool!.poolId],
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([
      { ok: true },
      { ok: false, cliError: true, apiError: true, name: 'ApiError', code: 'insufficient_balance', status: 402, hasMessage: true },
    ]);
    expect(cents((await kit.state()).balanceUsd)).toBe(cents(price * 0.5));
  });
});
