// `units release --customer NAME` in a real terminal 80 columns wide (script(1) gives the built
// binary a pty) against the sandbox: the question names the customer's units and how many, Enter
// alone is No and keeps them, only y/yes/n/no answer it (anything else is asked again), and `y`
// releases exactly that customer's units, no look-alike's and no untagged one.
import { afterEach, describe, expect, it } from 'vitest';
import { inTerminal, KEY, type Kit, seedFleet, startKit, waitForText } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });
const HINT = 'answer y or n';

type Terminal = ReturnType<typeof inTerminal>;

/** What the terminal showed as prose: escape sequences out, the prompt's own line breaks as spaces. */
const prose = (t: Terminal) =>
  t
    .screen()
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences are what is stripped
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\s+/g, ' ');

function release(k: Kit) {
  return inTerminal(kitEnv(k), ['units', 'release', '--customer', 'acme'], { columns: 80, rows: 30 });
}

/** Types `word` + Enter and waits until the question is asked again (the hint drawn twice, see confirm-strict.test.ts). */
async function refused(t: Terminal, word: string): Promise<void> {
  const from = t.screen().length;
  t.key(`${word}${KEY.enter}`);
  await waitForText(t, new RegExp(`${HINT}[\\s\\S]*${HINT}`), from);
}

const statuses = async (k: Kit) => Object.fromEntries((await k.state()).units.map((u) => [u.proxyRef, u.status]));

describe('units release --customer acme on a terminal', () => {
  it('names the customer’s units and their count; Enter and n keep them, other words are asked again; y releases only them', {
    timeout: 120_000,
  }, async () => {
    kit = await startKit({ balance: 100 });
    const acme = seedFleet(kit, [
      { hoursLeft: 5, description: 'customer=acme' },
      { hoursLeft: 9, description: 'vip customer=ACME' },
    ]);
    const others = seedFleet(kit, [
      { hoursLeft: 5, description: 'customer=acme-corp' },
      { hoursLeft: 5, description: 'acme' },
      { hoursLeft: 5 },
    ]);
    const all = [...acme, ...others];
    const allActive = Object.fromEntries(all.map((r) => [r, 'ACTIVE']));
    const question = `Release 2 units tagged customer=acme (${acme.join(', ')})? They are deleted permanently and nothing is refunded. (y/N)`;
    const balance = (await kit.state()).balanceUsd;

    // Enter alone is No: exit 2, every unit kept.
    const t = release(kit);
    await waitForText(t, '(y/N)');
    expect(prose(t)).toContain(question);
    for (const word of ['wait', 'yep', 'nope', 'release']) await refused(t, word);
    expect(await statuses(kit)).toEqual(allActive);
    t.key(KEY.enter);
    expect((await t.child).exitCode, t.screen()).toBe(2);
    expect(prose(t)).toContain('nothing released: the release was not confirmed');
    expect(await statuses(kit)).toEqual(allActive);

    // n and no are No too.
    for (const no of ['n', 'no']) {
      const again = release(kit);
      await waitForText(again, '(y/N)');
      again.key(`${no}${KEY.enter}`);
      expect((await again.child).exitCode, again.screen()).toBe(2);
      expect(await statuses(kit)).toEqual(allActive);
    }

    // y releases acme's two units and no other.
    const yes = release(kit);
    await waitForText(yes, '(y/N)');
    expect(prose(yes)).toContain(question);
    yes.key(`y${KEY.enter}`);
    expect((await yes.child).exitCode, yes.screen()).toBe(0);
    expect(await statuses(kit)).toEqual({ ...allActive, ...Object.fromEntries(acme.map((r) => [r, 'RELEASED'])) });
    // A release refunds nothing and charges nothing.
    expect((await kit.state()).balanceUsd).toBe(balance);
  });
});
