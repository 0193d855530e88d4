// The guided purchase in a real 80-column terminal (script(1) gives the built binary a pty) against the
// sandbox: the country is typed ahead by name as well as code ("ger" finds Germany, from the
// server's names or, when it gives none, Node's), then it asks how many units (1 by default, a
// whole number from 1 to 500, asked again otherwise) and for which customer (Enter for none; the
// characters --customer takes, asked again otherwise), and buys them all through the one
// purchase path: the same quote, the same (y/N) confirmation and the profile's budget.
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerPrompts,
  FAKE_API_KEY,
  inTerminal,
  json,
  KEY,
  type Kit,
  startFakeApi,
  startKit,
  tempHome,
  waitForText,
} from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

type Terminal = ReturnType<typeof inTerminal>;
const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });

/**
 * Types each of `words` + Enter, seeing `hint` drawn twice after each: inquirer draws it with the
 * error, then again when it is ready for the next key (it ignores keys while still validating).
 */
async function refused(t: Terminal, words: string[], hint: string): Promise<void> {
  const twice = new RegExp(`${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  for (const word of words) {
    const from = t.screen().length;
    t.key(`${word}${KEY.enter}`);
    await waitForText(t, twice, from);
  }
}

describe('guided units create: country by name, how many, which customer', () => {
  it('"ger" finds Germany; 0 and "two" are asked again, then 3; "acme corp" is asked again, then acme; 3 units bought, tagged', {
    timeout: 120_000,
  }, async () => {
    kit = await startKit({ balance: 100 });
    const t = inTerminal(kitEnv(kit), ['units', 'create'], { columns: 80, rows: 40 });
    await waitForText(t, 'Country (type a code or a name)', 0);
    let from = t.screen().length;
    t.key('ger');
    // Germany comes first (its name starts with it), under the cursor.
    await waitForText(t, /❯ DE Germany \(\d+ pools\)/, from);
    from = t.screen().length;
    t.key(KEY.enter);
    await waitForText(t, /✔ Country \(type a code or a name\) DE Germany/, from);
    // The first available pool in DE, the first period (3h), socks5.
    for (const prompt of ['Pool', 'Period', 'Protocol']) {
      await waitForText(t, prompt, from);
      from = t.screen().length;
      t.key(KEY.enter);
    }
    await waitForText(t, 'How many units (1 to 500) (1)', from);
    await refused(t, ['0', 'two'], 'the number of units must be a whole number from 1 to 500');
    t.key(`3${KEY.enter}`);
    await waitForText(t, 'For which customer (Enter for none)', 0);
    await refused(t, ['acme corp'], 'a customer must be 1 to 64 letters');
    // Nothing is bought while it asks.
    expect((await kit.state()).units).toEqual([]);
    from = t.screen().length;
    t.key(`acme${KEY.enter}`);
    await waitForText(t, 'Buy for', from);
    const screen = t.screen();
    const pool = /✔ Pool (DE-\d+)/.exec(screen)?.[1];
    expect(pool, screen).toBeDefined();
    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const total = `${(prices['3h']! * 3).toFixed(2)} USD`;
    expect(screen).toContain(`3 × 3h in ${pool} (socks5): ${total}`);
    expect(screen).toContain(`Buy for ${total}? (y/N)`);
    t.key(`y${KEY.enter}`);
    const r = await t.child;
    expect(r.exitCode, t.screen()).toBe(0);
    const state = await kit.state();
    expect(state.units.map((u) => u.poolId)).toEqual([pool, pool, pool]);
    expect(Math.round((100 - state.balanceUsd) * 100)).toBe(Math.round(prices['3h']! * 3 * 100));
    const units = await kit.api<{ data: { description: string }[] }>('/units');
    expect(units.data.map((u) => u.description)).toEqual(['customer=acme', 'customer=acme', 'customer=acme']);
  });

  it('Enter takes 1 and no customer; a budget the purchase exceeds refuses before the confirmation (exit 12), nothing bought', {
    timeout: 120_000,
  }, async () => {
    kit = await startKit({ balance: 100 });
    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const set = await kit.run(['config', 'set', 'max-spend-per-run', (prices['3h']! * 1.5).toFixed(2)]);
    expect(set.exitCode, String(set.stderr)).toBe(0);

    // One unit fits the budget: Enter at both questions buys one, untagged.
    // Without --period it is guided: the period (3h, the first) is asked.
    const args = ['units', 'create', '--pool', 'US-11', '--protocol', 'socks5'];
    const one = inTerminal(kitEnv(kit), args, { columns: 80 });
    const r1 = await answerPrompts(one, [
      ['Period', KEY.enter],
      ['How many', KEY.enter],
      ['For which customer', KEY.enter],
      ['Buy for', `y${KEY.enter}`],
    ]);
    expect(r1.exitCode, one.screen()).toBe(0);
    expect(one.screen()).toContain('✔ How many units (1 to 500) 1');
    let units = await kit.api<{ data: { description?: string }[] }>('/units');
    expect(units.data).toHaveLength(1);
    expect(units.data[0]!.description ?? '').toBe('');

    // Two do not: refused after the price, before (y/N).
    const two = inTerminal(kitEnv(kit), args, { columns: 80 });
    const r2 = await answerPrompts(two, [
      ['Period', KEY.enter],
      ['How many', `2${KEY.enter}`],
      ['For which customer', `acme${KEY.enter}`],
    ]);
    expect(r2.exitCode, two.screen()).toBe(12);
    expect(two.screen()).toContain('more than max-spend-per-run');
    expect(two.screen()).not.toContain('Buy for');
    units = await kit.api<{ data: { description?: string }[] }>('/units');
    expect(units.data).toHaveLength(1);
    expect((await kit.state()).balanceUsd).toBeCloseTo(100 - prices['3h']!, 2);

    // More than the balance as well as the budget: the balance is said first (exit 6), as the
    // same purchase with every flag given says it.
    const count = String(Math.min(500, Math.ceil(100 / prices['3h']!) + 1));
    const flagged = await kit.run([...args, '--period', '3h', '--count', count, '--yes']);
    expect(flagged.exitCode, String(flagged.stderr)).toBe(6);
    const many = inTerminal(kitEnv(kit), args, { columns: 80 });
    const r3 = await answerPrompts(many, [
      ['Period', KEY.enter],
      ['How many', `${count}${KEY.enter}`],
      ['For which customer', KEY.enter],
    ]);
    expect(r3.exitCode, many.screen()).toBe(6);
    expect(many.screen()).not.toContain('Buy for');
    expect((await kit.api<{ data: unknown[] }>('/units')).data).toHaveLength(1);
  });

  it('Ctrl-C at how many or at which customer buys nothing: exit 130, the balance untouched', { timeout: 120_000 }, async () => {
    kit = await startKit({ balance: 100 });
    // Without --period it is guided: the period is asked first.
    const args = ['units', 'create', '--pool', 'US-11', '--protocol', 'socks5'];
    for (const at of ['How many', 'For which customer']) {
      const t = inTerminal(kitEnv(kit), args, { columns: 80 });
      const answers: [string, string][] = [
        ['Period', KEY.enter],
        ...(at === 'How many' ? [] : [['How many', `2${KEY.enter}`] as [string, string]]),
      ];
      for (const [prompt, key] of answers) {
        await waitForText(t, prompt, 0);
        t.key(key);
      }
      await waitForText(t, at, 0);
      t.key(KEY.ctrlC);
      expect((await t.child).exitCode, t.screen()).toBe(130);
      expect(t.screen()).not.toContain('Buy for');
    }
    expect((await kit.api<{ data: unknown[] }>('/units')).data).toEqual([]);
    expect((await kit.state()).balanceUsd).toBe(100);
  });

  it('a server that gives no country names: the names come from Node, so "ger" still finds DE', { timeout: 60_000 }, async () => {
    const home = tempHome();
    const api = await startFakeApi({
      route: (req, res, path) => {
        if (req.method !== 'GET' || path !== '/countries') return false;
        json(res, 200, {
          data: [
            { country: 'DE', poolCount: 1 },
            { country: 'US', poolCount: 1 },
          ],
        });
        return true;
      },
    });
    try {
      const t = inTerminal({ ...home.env, PROXYCTL_BASE_URL: api.url, PROXYCTL_API_KEY: FAKE_API_KEY }, ['units', 'create']);
      // Nothing typed: every country, the first under the cursor.
      await waitForText(t, /❯ DE Germany \(1 pools\)/, 0);
      let from = t.screen().length;
      t.key('unit');
      // The list as last drawn (inquirer draws the term before the matches arrive): only the US.
      const lastList = () => t.screen().slice(t.screen().lastIndexOf('? Country'));
      await waitForText(t, /❯ US United States \(1 pools\)/, from);
      expect(lastList()).not.toContain('DE Germany');
      from = t.screen().length;
      t.key(`${KEY.backspace.repeat(4)}ger`);
      await waitForText(t, /ger\r?\n❯ DE Germany \(1 pools\)\r?\n\r?\n/, from);
      expect(lastList()).not.toContain('United States');
      t.key(KEY.ctrlC);
      expect((await t.child).exitCode).toBe(130);
    } finally {
      await api.close();
      home.cleanup();
    }
  });
});
