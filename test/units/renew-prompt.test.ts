// `units extend --expiring-within` in a real terminal (script(1) gives the built binary a pty):
// the quote for the selection is shown and confirmed before anything is charged; a "no" is exit 2
// and changes nothing; a missing --period is chosen from the prices.
import { afterEach, expect, it } from 'vitest';
import { answerPrompts, cents, inTerminal, KEY, type Kit, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });

async function setup() {
  kit = await startKit({ balance: 100 });
  const refs = seedFleet(kit, [{ hoursLeft: 2 }, { hoursLeft: 50 }, { hoursLeft: 3 }]);
  const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
  return { kit, refs, prices };
}

const extended = async (k: Kit) => (await k.state()).units.filter((u) => u.lastExtended !== null).map((u) => u.proxyRef);

it('shows count × price and the balance before → after, then extends on "yes"', { timeout: 120_000 }, async () => {
  const { kit, refs, prices } = await setup();
  const t = inTerminal(kitEnv(kit), ['units', 'extend', '--expiring-within', '24', '--period', '24h'], { columns: 100, rows: 30 });
  const total = (2 * cents(prices['24h']!)) / 100;
  const r = await answerPrompts(t, [[`Extend for ${total.toFixed(2)} USD?`, `y${KEY.enter}`]]);
  expect(r.exitCode, t.screen()).toBe(0);
  expect(t.screen()).toContain(
    `extending 2 units expiring within 24 h (${refs[0]}, ${refs[2]}) by 24h: ${total.toFixed(2)} USD (2 × ${prices['24h']!.toFixed(2)} USD)`,
  );
  expect(t.screen()).toContain(`balance 100.00 USD → ${(100 - total).toFixed(2)} USD after purchase`);
  expect((await extended(kit)).sort()).toEqual([refs[0], refs[2]].sort());
  expect(cents(100 - (await kit.state()).balanceUsd)).toBe(2 * cents(prices['24h']!));
});

it('a "no" is exit 2 and extends nothing', { timeout: 120_000 }, async () => {
  const { kit } = await setup();
  const t = inTerminal(kitEnv(kit), ['units', 'extend', '--expiring-within', '24', '--period', '24h'], { columns: 100, rows: 30 });
  const r = await answerPrompts(t, [['Extend for', `n${KEY.enter}`]]);
  expect(r.exitCode, t.screen()).toBe(2);
  expect(await extended(kit)).toEqual([]);
  expect((await kit.state()).balanceUsd).toBe(100);
});

it('without --period the period is chosen from the prices, then confirmed', { timeout: 120_000 }, async () => {
  const { kit, refs, prices } = await setup();
  const t = inTerminal(kitEnv(kit), ['units', 'extend', '--expiring-within', '24'], { columns: 100, rows: 30 });
  // The periods are listed shortest first: 3h, 12h, 24h, …
  const r = await answerPrompts(t, [
    [`Extend 2 units expiring within 24 h (${refs[0]}, ${refs[2]}) by`, `${KEY.down}${KEY.enter}`],
    ['Extend for', `y${KEY.enter}`],
  ]);
  expect(r.exitCode, t.screen()).toBe(0);
  expect(cents(100 - (await kit.state()).balanceUsd)).toBe(2 * cents(prices['12h']!));
});

it('Ctrl-C at the confirmation is exit 130 and extends nothing', { timeout: 120_000 }, async () => {
  const { kit } = await setup();
  const t = inTerminal(kitEnv(kit), ['units', 'extend', '--expiring-within', '24', '--period', '24h'], { columns: 100, rows: 30 });
  const r = await answerPrompts(t, [['Extend for', KEY.ctrlC]]);
  expect(r.exitCode, t.screen()).toBe(130);
  expect(t.screen()).toContain('cancelled; nothing was extended');
  expect(await extended(kit)).toEqual([]);
  expect((await kit.state()).balanceUsd).toBe(100);
});
