// `units swap REF --same-country`: the pool is picked from the unit's country (same state first,
// another provider preferred, never its own pool), named on stderr, and the unit really moves.
// US pools of the seeded catalogue: US-11 Verizon/california, US-12 T-Mobile/texas,
// US-14 Verizon/florida, US-15 T-Mobile/california, US-19 AT&T/california, …
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Kit, startKit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 1000 });
});
afterAll(() => kit.close());

/** Only these US pools are available (US-11 too while buying). */
function onlyAvailable(ids: string[]): void {
  for (const p of kit.sb.world.pools) if (p.country === 'US') p.available = ids.includes(p.poolId);
}

async function unitIn(poolId: string): Promise<string> {
  onlyAvailable([poolId]);
  const r = await kit.run(['units', 'create', '--pool', poolId, '--period', '3h', '--json', '-q']);
  expect(r.exitCode).toBe(0);
  return JSON.parse(String(r.stdout)).proxyRef as string;
}

const poolOf = async (ref: string) => (await kit.state()).units.find((u) => u.proxyRef === ref)!.poolId;

it('same state and another provider first, says which on stderr, and the unit moves there (--yes accepted)', async () => {
  const ref = await unitIn('US-11');
  onlyAvailable(['US-11', 'US-12', 'US-13', 'US-14', 'US-15', 'US-17', 'US-19']);
  const r = await kit.run(['units', 'swap', ref, '--same-country', '--yes', '--json']);
  expect(r.stderr).toContain(`swapping ${ref} from US-11 to US-15 (same country US, state california, provider T-Mobile)`);
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(String(r.stdout))).toMatchObject({ proxyRef: ref, poolId: 'US-15', country: 'US' });
  expect(await poolOf(ref)).toBe('US-15');
});

it('no other pool in the state: another state, another provider preferred', async () => {
  const ref = await unitIn('US-11');
  onlyAvailable(['US-11', 'US-12', 'US-14']);
  const r = await kit.run(['units', 'swap', ref, '--same-country', '--json']);
  expect(r.stderr).toContain(`swapping ${ref} from US-11 to US-12 (same country US, state texas, provider T-Mobile)`);
  expect(r.exitCode).toBe(0);
  expect(await poolOf(ref)).toBe('US-12');
});

it('only the same provider left: it is taken rather than nothing', async () => {
  const ref = await unitIn('US-11');
  onlyAvailable(['US-11', 'US-14']);
  const r = await kit.run(['units', 'swap', ref, '--same-country', '--json']);
  expect(r.exitCode).toBe(0);
  expect(await poolOf(ref)).toBe('US-14');
});

it('no other available pool in the country: exit 5 naming it, the unit stays', async () => {
  const ref = await unitIn('US-11');
  onlyAvailable(['US-11']);
  const r = await kit.run(['units', 'swap', ref, '--same-country']);
  expect(r.exitCode).toBe(5);
  expect(r.stderr).toContain(`no other available pool in US to swap ${ref} to`);
  expect(await poolOf(ref)).toBe('US-11');
  expect((await kit.state()).units.find((u) => u.proxyRef === ref)).toBeDefined();
});

it('--same-country with --pool is exit 2 before any request', async () => {
  const r = await kit.run(['units', 'swap', 'PRX-1', '--same-country', '--pool', 'US-12'], {
    env: { PROXYCTL_BASE_URL: 'http://127.0.0.1:9' },
  });
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toContain('--same-country picks the pool itself');
});
