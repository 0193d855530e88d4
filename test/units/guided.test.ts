// The guided purchase in a terminal (in-process, fake TTY): country → pool → period → protocol →
// how many → customer, then the price and the balance after purchase, and the purchase itself.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { fakeIO, fakeTerminal, waitForText } from '../helpers/index.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, host: '127.0.0.1', balance: 500 });
});
afterAll(() => sb.close());

/** Answers each prompt with Enter once it is drawn (after the previous answer); returns where the screen was then. */
async function enterAt(t: ReturnType<typeof fakeTerminal>, prompts: (string | RegExp)[]): Promise<number> {
  let from = 0;
  for (const prompt of prompts) {
    await waitForText(t, prompt, from);
    from = t.screen().length;
    t.key('\r');
  }
  return from;
}

it('walks country, pool, period and protocol, shows the price and balance after, then buys', async () => {
  const io = fakeIO({ tty: true, env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey, NO_COLOR: '1' } });
  io.stderr.end = (() => io.stderr) as typeof io.stderr.end;
  const run = main(['units', 'create', '--json'], io);
  const t = fakeTerminal(io, run);
  // The countries are listed after the question is drawn: Enter once the first is under the cursor.
  const from = await enterAt(t, [/Country[\s\S]*❯/, 'Pool', 'Period', 'Protocol', 'How many', 'For which customer']);
  await waitForText(t, 'Buy for', from);
  expect(io.err()).toMatch(/balance 500\.00 USD → [\d.]+ USD after purchase/);
  t.key('y\r');
  expect(await run).toBe(0);
  // An unavailable pool is listed, greyed out, saying so once (the prompt adds the reason itself).
  expect(io.err()).toMatch(/BR-13 .*unavailable/);
  expect(io.err()).not.toContain('(unavailable) unavailable');
  const unit = JSON.parse(io.out());
  const state = (await (await fetch(`${sb.baseUrl}/_sandbox/state`, { headers: { 'x-api-key': sb.apiKey } })).json()) as {
    units: { proxyRef: string; pricePaid: number }[];
    balanceUsd: number;
  };
  expect(state.units.map((u) => u.proxyRef)).toEqual([unit.proxyRef]);
  expect(unit.protocol).toBe('socks5');
  expect(Math.round((500 - state.balanceUsd) * 100)).toBe(Math.round(state.units[0]!.pricePaid * 100));
});

it('answering no to the price buys nothing and exits 2 (a refused confirmation)', async () => {
  const before = (await (await fetch(`${sb.baseUrl}/_sandbox/state`, { headers: { 'x-api-key': sb.apiKey } })).json()) as {
    units: unknown[];
    balanceUsd: number;
  };
  const io = fakeIO({ tty: true, env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey, NO_COLOR: '1' } });
  io.stderr.end = (() => io.stderr) as typeof io.stderr.end;
  const run = main(['units', 'create', '--pool', 'US-11', '--json'], io);
  const t = fakeTerminal(io, run);
  const from = await enterAt(t, ['Period', 'Protocol', 'How many', 'For which customer']);
  await waitForText(t, 'Buy for', from);
  t.key('n\r');
  expect(await run).toBe(2);
  expect(io.err()).toContain('nothing bought: the purchase was not confirmed');
  expect(io.out()).toBe('');
  const after = (await (await fetch(`${sb.baseUrl}/_sandbox/state`, { headers: { 'x-api-key': sb.apiKey } })).json()) as {
    units: unknown[];
    balanceUsd: number;
  };
  expect(after.units.length).toBe(before.units.length);
  expect(after.balanceUsd).toBe(before.balanceUsd);
});
