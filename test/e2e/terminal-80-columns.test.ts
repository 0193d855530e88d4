// A new user's first session in a real terminal 80 columns wide (script(1) gives the built binary
// a pty; @xterm/headless draws what it wrote, as the terminal would show it): log in with the key
// typed at the prompt, buy a unit through the guided purchase, extend it with the period asked for,
// release it after the confirmation. Each screen is asserted (the questions, the answers, nothing
// wider than 80 columns, the key never shown) and so is the sandbox's state after each step.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { answerPrompts, inTerminal, KEY, renderScreen, startKit, type Kit } from '../helpers/index.js';

const SIZE = { columns: 80, rows: 24 };
const { down: DOWN, enter: ENTER } = KEY;

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** One command on the terminal, answering each prompt (waited for by its text) with its keys. */
async function session(k: Kit, args: string[], answers: [string | RegExp, string][]) {
  const t = inTerminal(k.home.env, args, SIZE);
  const r = await answerPrompts(t, answers);
  const rows = await renderScreen(t.screen(), SIZE.columns);
  const screen = rows.map((r) => r.text).join('\n');
  // Nothing drawn wider than the terminal: no row continues the one above.
  expect(
    rows.filter((r) => r.wrapped),
    screen,
  ).toEqual([]);
  expect(screen).not.toContain(k.sb.apiKey);
  return { exitCode: r.exitCode, screen };
}

const usd = (n: number) => `${n.toFixed(2)} USD`;
const HOUR = 3_600_000;

it('first login, guided purchase, prompted extend and release at 80 columns', { timeout: 180_000 }, async () => {
  kit = await startKit({ balance: 100 });
  const { sb } = kit;
  const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');

  // 1. First login: the base URL and the key are typed at the prompts, never on argv; the key is
  // shown masked, checked against the server, then saved.
  const login = await session(
    kit,
    ['login'],
    [
      ['API base URL', `${sb.baseUrl}${ENTER}`],
      ['API key:', `${sb.apiKey}${ENTER}`],
    ],
  );
  expect(login.exitCode, login.screen).toBe(0);
  expect(login.screen).toContain(`✔ API base URL (without /api/reseller/v1): ${sb.baseUrl}`);
  expect(login.screen).toMatch(/^✔ API key: \*+$/m);
  expect(login.screen).toContain(`Logged in to ${sb.baseUrl}; saved as profile "default".`);
  expect(login.screen).toMatch(/balance\s+│ 100\.00 USD/);
  const config = readFileSync(join(kit.home.configDir, 'config.json'), 'utf8');
  expect(config).toContain(sb.baseUrl);
  expect(config).toContain(sb.apiKey);

  // 2. Guided purchase, through the saved profile (no key in the environment): country, pool,
  // period (7d: the fourth), protocol, how many (1), no customer, the price and the balance after,
  // a confirmation.
  const buy = await session(
    kit,
    ['units', 'create'],
    [
      ['Country', ENTER],
      ['Pool', ENTER],
      ['Period', `${DOWN}${DOWN}${DOWN}${ENTER}`],
      ['Protocol', ENTER],
      ['How many', ENTER],
      ['For which customer', ENTER],
      ['Buy for', `y${ENTER}`],
    ],
  );
  expect(buy.exitCode, buy.screen).toBe(0);
  let state = await kit.state();
  expect(state.units).toHaveLength(1);
  const unit = state.units[0]!;
  const ref = unit.proxyRef;
  expect(unit.status).toBe('ACTIVE');
  expect(unit.pricePaid).toBe(prices['7d']);
  expect(state.balanceUsd).toBeCloseTo(100 - prices['7d']!, 2);
  expect(buy.screen).toMatch(/^✔ Country \(type a code or a name\) [A-Z]{2}\b/m);
  expect(buy.screen).toContain('✔ How many units (1 to 500) 1');
  expect(buy.screen).toMatch(new RegExp(`^✔ Pool ${unit.poolId}  `, 'm'));
  expect(buy.screen).toContain(`✔ Period 7d   ${usd(prices['7d']!)}`);
  expect(buy.screen).toContain('✔ Protocol socks5 (username and password)');
  expect(buy.screen).toContain(
    `1 × 7d in ${unit.poolId} (socks5): ${usd(prices['7d']!)}\nbalance 100.00 USD → ${usd(state.balanceUsd)} after purchase`,
  );
  expect(buy.screen).toContain(`✔ Buy for ${usd(prices['7d']!)}? Yes`);
  expect(buy.screen).toMatch(new RegExp(`ref\\s+│ ${ref}\\b`));
  expect(buy.screen).toContain(`${unit.ip}:${unit.port}:${unit.credentials!.username}:${unit.credentials!.password}`);

  // 3. Extend without --period: the periods with their prices (24h: the third), the quote, a
  // confirmation; one day added, one day's price charged.
  const balanceBefore = state.balanceUsd;
  const extend = await session(
    kit,
    ['units', 'extend', ref],
    [
      [`Extend ${ref} by`, `${DOWN}${DOWN}${ENTER}`],
      ['Extend for', `y${ENTER}`],
    ],
  );
  expect(extend.exitCode, extend.screen).toBe(0);
  state = await kit.state();
  const extended = state.units.find((u) => u.proxyRef === ref)!;
  expect(Date.parse(extended.expiresAt) - Date.parse(unit.expiresAt)).toBe(24 * HOUR);
  expect(state.balanceUsd).toBeCloseTo(balanceBefore - prices['24h']!, 2);
  expect(extend.screen).toContain(`✔ Extend ${ref} by 24h  ${usd(prices['24h']!)}`);
  expect(extend.screen).toContain(
    `extending 1 unit by 24h: ${usd(prices['24h']!)}\nbalance ${usd(balanceBefore)} → ${usd(state.balanceUsd)} after purchase`,
  );
  expect(extend.screen).toContain(`✔ Extend for ${usd(prices['24h']!)}? Yes`);
  expect(extend.screen).toMatch(/extended\s+│ true/);
  expect(extend.screen).toContain(extended.expiresAt);

  // 4. Release: asked first (default no), "y" releases; nothing is refunded.
  const release = await session(kit, ['units', 'release', ref], [[`Release ${ref}?`, `y${ENTER}`]]);
  expect(release.exitCode, release.screen).toBe(0);
  expect(release.screen).toContain(`✔ Release ${ref}? They are deleted permanently and nothing is refunded. Yes`);
  expect(release.screen).toMatch(/removed\s+│ true/);
  const after = await kit.state();
  expect(after.units.find((u) => u.proxyRef === ref)!.status).toBe('RELEASED');
  expect(after.balanceUsd).toBe(state.balanceUsd);
});
