// An idempotency key is bound to the purchase it was first used for. The API replays by key alone,
// so the same key with another pool, period, protocol or count would print the first purchase's
// units as if bought now: proxyctl refuses it (exit 8) before any request, saying what the key was
// for; and where it has no record of the key (another machine), a replayed unit that is not what
// was asked for is refused too, never printed as created.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, type Kit, pickPools, proxyctl, startKit, tempHome } from '../helpers/index.js';

const KEY = '2f0c3b6a-8d41-4e27-9a53-7c1e5d9b0a64';
let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** Requests the --debug trace shows proxyctl sent. */
const sent = (stderr: unknown) =>
  String(stderr)
    .split('\n')
    .filter((l) => /→ (GET|POST|PATCH|PUT|DELETE) /.test(l));

async function bought(kit: Kit, pool: string) {
  const r = await kit.run([
    'units',
    'create',
    '--pool',
    pool,
    '--period',
    '3h',
    '--protocol',
    'socks5',
    '--idempotency-key',
    KEY,
    '--json',
  ]);
  expect(r.exitCode).toBe(0);
  return JSON.parse(String(r.stdout)) as { proxyRef: string };
}

describe('a reused --idempotency-key', () => {
  it('with another pool, period and protocol: exit 8 before any request, naming what the key was for', async () => {
    kit = await startKit({ balance: 1000 });
    const [a, b] = await pickPools(kit);
    const first = await bought(kit, a!.poolId);
    const before = await kit.state();
    const r = await kit.run([
      'units',
      'create',
      '--pool',
      b!.poolId,
      '--period',
      '30d',
      '--protocol',
      'http',
      '--idempotency-key',
      KEY,
      '--json',
      '--debug',
    ]);
    expect(r.exitCode).toBe(8);
    expect(sent(r.stderr)).toEqual([]);
    expect(r.stdout).toBe('');
    const err = JSON.parse(
      String(r.stderr)
        .split('\n')
        .find((l) => l.startsWith('{"error"'))!,
    ).error;
    expect(err.code).toBe('idempotency_key_reused');
    expect(err.message).toContain(`was used for 1 × 3h socks5 unit in ${a!.poolId}`);
    expect(err.message).toContain(`this command asks for 1 × 30d http unit in ${b!.poolId}`);
    expect(err.hint).toContain('use a new key');
    const after = await kit.state();
    expect(after.units.map((u) => u.proxyRef)).toEqual([first.proxyRef]);
    expect(after.balanceUsd).toBe(before.balanceUsd);
  });

  it('with another --count: refused the same way; the same command again replays its unit, charging nothing', async () => {
    kit = await startKit({ balance: 1000 });
    const [a] = await pickPools(kit);
    const first = await bought(kit, a!.poolId);
    const balance = (await kit.state()).balanceUsd;
    const more = await kit.run(['units', 'create', '--pool', a!.poolId, '--period', '3h', '--count', '3', '--idempotency-key', KEY]);
    expect(more.exitCode).toBe(8);
    expect(String(more.stderr)).toContain('this command asks for 3 × 3h socks5 units');
    const again = await bought(kit, a!.poolId);
    expect(again.proxyRef).toBe(first.proxyRef);
    const s = await kit.state();
    expect(s.units).toHaveLength(1);
    expect(cents(s.balanceUsd)).toBe(cents(balance));
  });

  it('unknown here (another config dir) but replayed by the server for another pool: exit 8, nothing printed as created', async () => {
    kit = await startKit({ balance: 1000 });
    const [a, b] = await pickPools(kit);
    const first = await bought(kit, a!.poolId);
    const balance = (await kit.state()).balanceUsd;
    const elsewhere = tempHome();
    try {
      const r = await proxyctl(['units', 'create', '--pool', b!.poolId, '--period', '3h', '--idempotency-key', KEY, '--json'], {
        home: elsewhere,
        env: { PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey },
      });
      expect(r.exitCode).toBe(8);
      expect(r.stdout).toBe('');
      expect(String(r.stderr)).toContain(`replayed ${first.proxyRef}`);
      expect(String(r.stderr)).not.toMatch(/charged/);
    } finally {
      elsewhere.cleanup();
    }
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef)).toEqual([first.proxyRef]);
    expect(cents(s.balanceUsd)).toBe(cents(balance));
  });
});
