// logout forgets the key only: a profile's budgets, policy and base URL stay, so rotating a key
// with logout then login keeps the spending guard. The settings go with `profiles remove`, which
// asks on a terminal (Enter is No) and needs --yes anywhere else, refusing before it touches anything.
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerPrompts,
  inTerminal,
  KEY,
  type Kit,
  loginWithStdin,
  pickPools,
  proxyctl,
  readConfig,
  startKit,
  tempHome,
  type TempHome,
} from '../helpers/index.js';

let kit: Kit | undefined;
let h: TempHome | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
  h?.cleanup();
  h = undefined;
});

/** The binary on this home's profiles alone: no key or base URL from the environment. */
const run = async (args: string[], input?: string) => {
  const r = await proxyctl(args, { home: h!, ...(input === undefined ? {} : { input, stdin: 'pipe' }) } as Parameters<typeof proxyctl>[1]);
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
};

/** Logged in to the sandbox as "default", with a daily budget that allows one 24h unit and a country policy. */
async function loggedInWithBudget() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  h = tempHome();
  const [pool] = await pickPools(kit);
  const country = pool!.poolId.slice(0, 2).toUpperCase();
  const budget = (Math.round(pool!.prices['24h']! * 100) + 1) / 100;
  expect((await loginWithStdin(h, kit.sb.baseUrl, undefined, kit.sb.apiKey)).exitCode).toBe(0);
  expect((await run(['config', 'set', 'max-spend-per-day', String(budget)])).code).toBe(0);
  expect((await run(['config', 'set', 'allowed-countries', country])).code).toBe(0);
  const settings = { baseUrl: kit.sb.baseUrl, maxSpendPerDay: budget, allowedCountries: [country] };
  return { pool: pool!, budget, country, settings };
}

describe('logout and profiles remove', () => {
  it('logout then login again keeps the budget: a purchase over it is still refused with exit 12', async () => {
    const { pool, budget, country, settings } = await loggedInWithBudget();
    const out = await run(['logout']);
    expect(out.code, out.err).toBe(0);
    expect(out.err).toBe(
      'Logged out: removed the API key of profile "default" (from the config file).\n' +
        `Kept profile default's settings: base URL ${kit!.sb.baseUrl}, max-spend-per-day ${budget}, allowed-countries ${country}; proxyctl profiles remove default forgets them too.`,
    );
    expect(readConfig(h!)).toEqual({ currentProfile: 'default', profiles: { default: settings } });
    expect((await run(['account'])).code).toBe(3);
    expect((await run(['logout'])).err).toBe('Profile "default" has no stored API key; nothing to do.');

    // The rotated key (the sandbox has one): the kept base URL is used, no --base-url needed.
    const again = await run(['login', '--api-key-stdin'], `${kit!.sb.apiKey}\n`);
    expect(again.code, again.err).toBe(0);
    expect(readConfig(h!).profiles!.default).toEqual({ ...settings, apiKey: kit!.sb.apiKey });
    const buy = ['units', 'create', '--pool', pool.poolId, '--period', '24h', '--json'];
    expect((await run(buy)).code).toBe(0);
    const over = await run(buy);
    expect(over.code, over.err).toBe(12);
    expect((await kit!.state()).units).toHaveLength(1);
  }, 120_000);

  it('profiles remove without a terminal needs --yes: exit 2 and everything kept; with --yes the settings go too', async () => {
    const { settings } = await loggedInWithBudget();
    const before = readConfig(h!);
    const refused = await run(['profiles', 'remove', 'default']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('refusing to remove profile "default" without confirmation; nothing was removed');
    expect(refused.err).toContain('add --yes to confirm, or run proxyctl logout --profile default to forget only the key');
    expect(readConfig(h!)).toEqual(before);
    expect(before.profiles!.default).toEqual({ ...settings, apiKey: kit!.sb.apiKey });

    const removed = await run(['profiles', 'remove', 'default', '--yes']);
    expect(removed.code, removed.err).toBe(0);
    expect(removed.err).toContain('Removed profile "default" with its API key and its settings (base URL');
    expect(readConfig(h!)).toEqual({ profiles: {} });
    // A new login starts without the old budget.
    expect((await loginWithStdin(h!, kit!.sb.baseUrl, undefined, kit!.sb.apiKey)).exitCode).toBe(0);
    expect(readConfig(h!).profiles!.default).toEqual({ baseUrl: kit!.sb.baseUrl, apiKey: kit!.sb.apiKey });
  }, 120_000);

  it('profiles remove on a terminal asks; Enter alone is No (exit 2, kept), y removes', async () => {
    await loggedInWithBudget();
    const before = readConfig(h!);
    const ask = (keys: string) => {
      const t = inTerminal(h!.env, ['profiles', 'remove', 'default'], { columns: 200 });
      return { t, done: answerPrompts(t, [['Remove profile "default"', keys]]) };
    };
    const no = ask(KEY.enter);
    expect((await no.done).exitCode, no.t.screen()).toBe(2);
    expect(no.t.screen()).toMatch(
      /Remove profile "default" and forget its API key and its settings \(base URL \S+, max-spend-per-day [\d.]+, allowed-countries [A-Z]{2}\)\? \(y\/N\)/,
    );
    expect(no.t.screen()).toContain('nothing removed: the removal of profile "default" was not confirmed');
    expect(readConfig(h!)).toEqual(before);
    const yes = ask(`y${KEY.enter}`);
    expect((await yes.done).exitCode, yes.t.screen()).toBe(0);
    expect(readConfig(h!)).toEqual({ profiles: {} });
  }, 120_000);
});
