// Bulk progress on a real terminal (script(1) gives the binary a pty): a bar redrawn in place,
// "n/total created", erased before the results are printed; nothing with --quiet.
import { afterEach, expect, it } from 'vitest';
import { inTerminal, pickPools, startKit, type Kit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function buyThree(extra: string[]) {
  kit = await startKit({ balance: 500 });
  const pool = (await pickPools(kit))[0]!.poolId;
  const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
  const t = inTerminal(env, ['units', 'create', '--pool', pool, '--period', '3h', '--count', '3', '-o', 'conn', ...extra]);
  const r = await t.child;
  expect(r.exitCode, t.screen()).toBe(0);
  const state = await kit.state();
  expect(state.units).toHaveLength(3);
  return { screen: t.screen(), first: `${state.units[0]!.ip}:${state.units[0]!.port}` };
}

it('draws a bar with the count, and erases it before the results', async () => {
  const { screen, first } = await buyThree([]);
  for (const n of [1, 2, 3]) expect(screen).toContain(`${n}/3 created`);
  expect(screen).toContain('█');
  const between = screen.slice(screen.lastIndexOf('3/3 created'), screen.indexOf(first));
  // The line is erased (CSI K / CSI 2K) before the first connection string is printed.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the erase code is the point
  expect(between).toMatch(/\u001b\[2?K/);
  expect(screen.slice(screen.indexOf(first))).not.toContain('created');
});

it('--quiet: no progress at all', async () => {
  const { screen } = await buyThree(['--quiet']);
  expect(screen).not.toContain('created');
  expect(screen).not.toContain('█');
});
