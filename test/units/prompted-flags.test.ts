// In a real terminal (script(1) gives the built binary a pty), the flag `units swap`,
// `change-protocol` or `extend` needs and was not given is asked for: a pool list with the unit's
// own country first, the protocols (the current one not selectable), an IP checked as --allow-ip
// is, the missing half of the credentials (masked); a "no" or Ctrl-C changes nothing.
import { afterEach, expect, it } from 'vitest';
import { answerPrompts, inTerminal, KEY, pickPools, startKit, type Kit } from '../helpers/index.js';

const { down: DOWN, enter: ENTER, backspace: BACKSPACE, ctrlC: CTRL_C } = KEY;

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });

async function buyOne(k: Kit): Promise<{ proxyRef: string; poolId: string; country: string }> {
  const [pool] = await pickPools(k);
  const r = await k.run(['units', 'create', '--pool', pool!.poolId, '--period', '3h', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout));
}

/** Runs `args` on the terminal, answering each prompt (waited for by its text) with its keys. */
async function answer(k: Kit, args: string[], steps: [string | RegExp, string][]) {
  const t = inTerminal(kitEnv(k), args, { columns: 80, rows: 24 });
  const r = await answerPrompts(t, steps);
  return { exitCode: r.exitCode, screen: t.screen() };
}

it('swap without --pool: a pool of the unit’s own country is offered first, and the unit moves there', { timeout: 120_000 }, async () => {
  kit = await startKit({ balance: 100 });
  const unit = await buyOne(kit);
  const r = await answer(
    kit,
    ['units', 'swap', unit.proxyRef],
    [[`Swap ${unit.proxyRef} (now ${unit.poolId}, ${unit.country}) to pool`, ENTER]],
  );
  expect(r.exitCode, r.screen).toBe(0);
  const moved = (await kit.state()).units[0]!;
  expect(moved.poolId).not.toBe(unit.poolId);
  expect(moved.poolId.startsWith(`${unit.country}-`)).toBe(true);
  expect(r.screen).toContain(`to pool ${moved.poolId}`);
  expect((await kit.state()).balanceUsd).toBeCloseTo(100 - (await pickPools(kit))[0]!.prices['3h']!, 2);
});

it('change-protocol without --protocol: the current one is not offered; inject asks for the IP and checks it', {
  timeout: 120_000,
}, async () => {
  kit = await startKit({ balance: 100 });
  const unit = await buyOne(kit);
  const r = await answer(
    kit,
    ['units', 'change-protocol', unit.proxyRef],
    [
      [`New protocol for ${unit.proxyRef} (now socks5)`, `${DOWN}${ENTER}`],
      ['Client IPv4 allowed to connect', `1.2.3.999${ENTER}`],
      ['IPv4 address like 203.0.113.7', `${BACKSPACE.repeat(9)}203.0.113.7${ENTER}`],
    ],
  );
  expect(r.exitCode, r.screen).toBe(0);
  expect(r.screen).toContain('(current)');
  const now = await kit.api<{ protocol: string; allowedIps: string[] }>(`/units/${unit.proxyRef}`);
  expect(now.protocol).toBe('http_noauth');
  expect(now.allowedIps).toEqual(['203.0.113.7']);
});

it('change-protocol --username without --password: the password is asked for, masked', { timeout: 120_000 }, async () => {
  kit = await startKit({ balance: 100 });
  const unit = await buyOne(kit);
  const r = await answer(
    kit,
    ['units', 'change-protocol', unit.proxyRef, '--protocol', 'http', '--username', 'bob'],
    [['Proxy password', `s3cret-pw${ENTER}`]],
  );
  expect(r.exitCode, r.screen).toBe(0);
  expect(r.screen).toContain('Proxy password *********');
  const now = (await kit.state()).units[0]!;
  expect(now.credentials).toEqual({ username: 'bob', password: 's3cret-pw' });
});

it('extend without --period: a "no" at the price exits 2 and charges nothing', { timeout: 120_000 }, async () => {
  kit = await startKit({ balance: 100 });
  const unit = await buyOne(kit);
  const before = await kit.state();
  const r = await answer(
    kit,
    ['units', 'extend', unit.proxyRef],
    [
      [`Extend ${unit.proxyRef} by`, ENTER],
      ['Extend for', `n${ENTER}`],
    ],
  );
  expect(r.exitCode, r.screen).toBe(2);
  expect(r.screen).toContain('nothing extended: the extension was not confirmed');
  expect(await kit.state()).toMatchObject({ balanceUsd: before.balanceUsd, units: [{ expiresAt: before.units[0]!.expiresAt }] });
});

it('extend without --period: Ctrl-C at the question exits 130 and charges nothing', { timeout: 120_000 }, async () => {
  kit = await startKit({ balance: 100 });
  const unit = await buyOne(kit);
  const before = await kit.state();
  const r = await answer(kit, ['units', 'extend', unit.proxyRef], [[`Extend ${unit.proxyRef} by`, CTRL_C]]);
  expect(r.exitCode, r.screen).toBe(130);
  expect(r.screen).toContain('cancelled; nothing was extended');
  expect(await kit.state()).toMatchObject({ balanceUsd: before.balanceUsd, units: [{ expiresAt: before.units[0]!.expiresAt }] });
});
