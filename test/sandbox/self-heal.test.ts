// The README's self-healing recipe, as the binary runs it: a unit goes down (unit.down, or its
// whole pool by server.down), `units swap --same-country` moves it, and the address it prints
// carries traffic.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Kit, startKit, tcpProbe, viaSocks } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit.close());

async function heal(down: string[]): Promise<void> {
  const made = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '3h', '--json', '-q']);
  expect(made.exitCode, String(made.stderr)).toBe(0);
  const u = JSON.parse(String(made.stdout));
  const trig = await kit.run(['sandbox', 'trigger', ...down.map((d) => d.replace('REF', u.proxyRef)), '--json']);
  expect(trig.exitCode, String(trig.stderr)).toBe(0);
  expect(await tcpProbe(u)).toBe('ECONNREFUSED');
  const r = await kit.run(['units', 'swap', u.proxyRef, '--same-country', '--yes', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const moved = JSON.parse(String(r.stdout));
  expect(moved.poolId).not.toBe('US-11');
  expect((await viaSocks(moved, `${kit.sb.baseUrl}/echo`)).body.sourceAddress).toBe(moved.ip);
}

it('a unit downed by unit.down listens at the address units swap --same-country prints', async () => {
  await heal(['unit.down', '--unit', 'REF']);
});

it('a unit on a pool downed by server.down listens at its new address too', async () => {
  await heal(['server.down', '--pool', 'US-11']);
});
