// A confirmation that spends or destroys, in a real terminal (script(1) gives the built binary a
// pty) against the sandbox: it shows (y/N), Enter alone is No, and only y/yes/n/no answer it.
// Anything else (a stray `wait` or `clear` typed into the prompt) is asked again and charges
// nothing. "Log in now?" keeps Enter = yes (it neither spends nor destroys) but is as strict.
import { afterEach, describe, expect, it } from 'vitest';
import { answerPrompts, inTerminal, KEY, type Kit, pickPools, seedFleet, startKit, waitForText } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });
const HINT = 'answer y or n';

type Terminal = ReturnType<typeof inTerminal>;

/** Waits for `prompt` and answers it with `keys`. */
async function answer(t: Terminal, prompt: string, keys: string): Promise<void> {
  await waitForText(t, prompt);
  t.key(keys);
}

/** Types each of `words` + Enter at the prompt, seeing it asked again after each. */
async function typeRefused(t: Terminal, prompt: string, words: string[]): Promise<void> {
  const at = t.screen().length;
  await waitForText(t, prompt, at);
  // The question, then the answers with No as the default.
  expect(t.screen().slice(t.screen().indexOf(prompt))).toMatch(/ \(y\/N\)/);
  for (const word of words) {
    const from = t.screen().length;
    t.key(`${word}${KEY.enter}`);
    // inquirer draws the hint once with the error and again when it is ready for the next key: it
    // ignores keys while it is still validating, so the next key waits for the second drawing.
    await waitForText(t, new RegExp(`${HINT}[\\s\\S]*${HINT}`), from);
  }
}

/** The guided purchase with the pool and protocol given: the period (the first, 3h), how many (1) and the customer (none) are asked, then the price. */
function guidedBuy(k: Kit, poolId: string) {
  return inTerminal(kitEnv(k), ['units', 'create', '--pool', poolId, '--protocol', 'socks5'], { columns: 100, rows: 30 });
}

describe('Buy for … ? (y/N)', () => {
  it('wait and clear are asked again, Enter alone is No: exit 2, nothing bought; then yes buys', { timeout: 120_000 }, async () => {
    kit = await startKit({ balance: 100 });
    const [pool] = await pickPools(kit);
    const t = guidedBuy(kit, pool!.poolId);
    await answer(t, 'Period', KEY.enter);
    await answer(t, 'How many', KEY.enter);
    await answer(t, 'For which customer', KEY.enter);
    await typeRefused(t, 'Buy for', ['wait', 'clear']);
    // Still asking, and nothing charged while it asks.
    expect((await kit.state()).units).toEqual([]);
    t.key(KEY.enter);
    expect((await t.child).exitCode, t.screen()).toBe(2);
    expect(t.screen()).toContain('nothing bought: the purchase was not confirmed');
    expect(t.screen()).toMatch(/✔ Buy for [\d.]+ USD\? No/);
    const state = await kit.state();
    expect(state.units).toEqual([]);
    expect(state.balanceUsd).toBe(100);

    const again = guidedBuy(kit, pool!.poolId);
    const r = await answerPrompts(again, [
      ['Period', KEY.enter],
      ['How many', KEY.enter],
      ['For which customer', KEY.enter],
      ['Buy for', `yes${KEY.enter}`],
    ]);
    expect(r.exitCode, again.screen()).toBe(0);
    expect(again.screen()).toMatch(/✔ Buy for [\d.]+ USD\? Yes/);
    const bought = await kit.state();
    expect(bought.units).toHaveLength(1);
    expect(bought.balanceUsd).toBeCloseTo(100 - pool!.prices['3h']!, 2);
  });
});

describe('Extend for … ? (y/N)', () => {
  it('clear and wait are asked again, Enter alone is No: exit 2, nothing extended; then " YES " extends', {
    timeout: 120_000,
  }, async () => {
    kit = await startKit({ balance: 100 });
    const [ref] = seedFleet(kit, [{ hoursLeft: 5 }]);
    const t = inTerminal(kitEnv(kit), ['units', 'extend', ref!], { columns: 100, rows: 30 });
    await answer(t, `Extend ${ref} by`, KEY.enter);
    await typeRefused(t, 'Extend for', ['clear', 'wait']);
    expect((await kit.state()).units[0]!.lastExtended).toBeNull();
    t.key(KEY.enter);
    expect((await t.child).exitCode, t.screen()).toBe(2);
    expect(t.screen()).toContain('nothing extended: the extension was not confirmed');
    const state = await kit.state();
    expect(state.units[0]!.lastExtended).toBeNull();
    expect(state.balanceUsd).toBe(100);

    // Any case, spaces around.
    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const again = inTerminal(kitEnv(kit), ['units', 'extend', ref!], { columns: 100, rows: 30 });
    const r = await answerPrompts(again, [
      [`Extend ${ref} by`, KEY.enter],
      ['Extend for', ` YES ${KEY.enter}`],
    ]);
    expect(r.exitCode, again.screen()).toBe(0);
    const extended = await kit.state();
    expect(extended.units[0]!.lastExtended).not.toBeNull();
    expect(extended.balanceUsd).toBeCloseTo(100 - prices['3h']!, 2);
  });
});

describe('Release … ? (y/N)', () => {
  it('wait is asked again, Enter alone is No: exit 2, nothing released; then y releases', { timeout: 120_000 }, async () => {
    kit = await startKit({ balance: 100 });
    const [ref] = seedFleet(kit, [{ hoursLeft: 5 }]);
    const t = inTerminal(kitEnv(kit), ['units', 'release', ref!], { columns: 100, rows: 30 });
    await typeRefused(t, `Release ${ref}?`, ['wait', 'clear']);
    expect((await kit.state()).units[0]!.status).toBe('ACTIVE');
    t.key(KEY.enter);
    expect((await t.child).exitCode, t.screen()).toBe(2);
    expect(t.screen()).toContain('nothing released: the release was not confirmed');
    expect((await kit.state()).units[0]!.status).toBe('ACTIVE');

    const again = inTerminal(kitEnv(kit), ['units', 'release', ref!], { columns: 100, rows: 30 });
    const r = await answerPrompts(again, [[`Release ${ref}?`, `y${KEY.enter}`]]);
    expect(r.exitCode, again.screen()).toBe(0);
    expect((await kit.state()).units[0]!.status).toBe('RELEASED');
  });
});

describe('Log in now? (Y/n)', () => {
  it('garbage is asked again; Enter alone goes on to the login', { timeout: 120_000 }, async () => {
    kit = await startKit();
    // No key anywhere: the command offers to log in.
    const t = inTerminal({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl }, ['account'], { columns: 100, rows: 30 });
    await waitForText(t, 'Log in now?');
    expect(t.screen()).toContain('Log in now? (Y/n)');
    let from = t.screen().length;
    t.key(`wait${KEY.enter}`);
    await waitForText(t, HINT, from);
    from = t.screen().length;
    t.key(KEY.enter);
    await waitForText(t, 'API key', from);
    t.key(KEY.ctrlC);
    expect((await t.child).exitCode).toBe(130);
  });
});
