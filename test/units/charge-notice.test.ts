// After every charge the user is told what it cost and what is left: "charged X USD, balance now
// Y USD" on stderr (hidden by --quiet), X from the price and the units actually charged, Y as
// the API reports it afterwards, or only the charge when the balance cannot be read.
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiError,
  cents,
  FAKE_API_KEY,
  json,
  type Kit,
  pickPools,
  proxyctl,
  type ScriptedServer,
  startFakeApi,
  startKit,
  tempHome,
} from '../helpers/index.js';

const KEY = '0d9c8b7a-6f5e-4d3c-8b2a-190817161514';
let kit: Kit | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await kit?.close();
  await server?.close();
  kit = undefined;
  server = undefined;
});

const usd = (n: number) => `${n.toFixed(2)} USD`;
const lines = (s: unknown) => String(s).split('\n').filter(Boolean);

async function setup(balance = 100) {
  kit = await startKit({ balance });
  const pools = await pickPools(kit);
  return { kit, pool: pools[0]!.poolId, price: (p: string) => pools[0]!.prices[p]! };
}

describe('units create tells the charge and the balance', () => {
  it('one unit', async () => {
    const { kit, pool, price } = await setup();
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--json']);
    expect(r.exitCode).toBe(0);
    const s = await kit.state();
    expect(cents(100 - s.balanceUsd)).toBe(cents(price('24h')));
    expect(lines(r.stderr)).toEqual([`charged ${usd(price('24h'))}, balance now ${usd(s.balanceUsd)}`]);
  });

  it('a batch: the sum of what was bought; a resumed batch charges only the rest', async () => {
    const { kit, pool, price } = await setup();
    const args = ['units', 'create', '--pool', pool, '--period', '3h', '--count', '3', '--idempotency-key', KEY, '--json'];
    // Two units provisioned, then the engine fails upstream (refunded) for the rest of the run.
    let calls = 0;
    kit.sb.world.engineFails = () => ++calls > 2;
    const first = await kit.run(args);
    expect(first.exitCode).toBe(10);
    const afterFirst = (await kit.state()).balanceUsd;
    expect(cents(100 - afterFirst)).toBe(2 * cents(price('3h')));
    expect(lines(first.stderr)).toContain(`charged ${usd((2 * cents(price('3h'))) / 100)}, balance now ${usd(afterFirst)}`);

    kit.sb.world.engineFails = () => false;
    const again = await kit.run(args);
    expect(again.exitCode).toBe(0);
    const s = await kit.state();
    expect(s.units).toHaveLength(3);
    expect(cents(afterFirst - s.balanceUsd)).toBe(cents(price('3h')));
    expect(lines(again.stderr)).toContain(`charged ${usd(price('3h'))}, balance now ${usd(s.balanceUsd)}`);
  });

  it('-q hides it', async () => {
    const { kit, pool } = await setup();
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--json', '-q']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toBe('');
  });

  it('a dry run charges nothing and says no charge', async () => {
    const { kit, pool } = await setup();
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).not.toContain('charged');
    expect((await kit.state()).balanceUsd).toBe(100);
  });
});

describe('units extend tells the charge and the balance', () => {
  it('one unit and several', async () => {
    const { kit, pool, price } = await setup();
    const bought = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '3', '--json', '-q']);
    const refs = JSON.parse(String(bought.stdout)).map((u: { proxyRef: string }) => u.proxyRef) as string[];
    const before = (await kit.state()).balanceUsd;

    const one = await kit.run(['units', 'extend', refs[0]!, '--period', '24h', '--json']);
    expect(one.exitCode).toBe(0);
    const mid = (await kit.state()).balanceUsd;
    expect(cents(before - mid)).toBe(cents(price('24h')));
    expect(lines(one.stderr)).toEqual([`charged ${usd(price('24h'))}, balance now ${usd(mid)}`]);

    const many = await kit.run(['units', 'extend', ...refs, '--period', '3h', '--json']);
    expect(many.exitCode).toBe(0);
    const end = (await kit.state()).balanceUsd;
    expect(cents(mid - end)).toBe(3 * cents(price('3h')));
    expect(lines(many.stderr)).toContain(`charged ${usd((3 * cents(price('3h'))) / 100)}, balance now ${usd(end)}`);
  });

  it('a partial failure: charged only for what was extended', async () => {
    const { kit, pool, price } = await setup();
    const bought = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--json', '-q']);
    const ref = JSON.parse(String(bought.stdout)).proxyRef as string;
    const before = (await kit.state()).balanceUsd;
    const r = await kit.run(['units', 'extend', ref, 'PRX-424242', '--period', '24h', '--json']);
    expect(r.exitCode).toBe(10);
    const end = (await kit.state()).balanceUsd;
    expect(cents(before - end)).toBe(cents(price('24h')));
    expect(lines(r.stderr)).toContain(`charged ${usd(price('24h'))}, balance now ${usd(end)}`);
  });

  it('a balance that cannot be read afterwards: only the charge, never a computed balance', async () => {
    let accountReads = 0;
    server = await startFakeApi({
      route: (req, res, path) => {
        if (req.method === 'GET' && path === '/account') {
          accountReads += 1;
          if (accountReads === 1) json(res, 200, { balanceUsd: 50, discountPercent: 0, resellerEnabled: true });
          else apiError(res, 400, 'bad_request', 'no balance today');
          return true;
        }
        if (req.method === 'GET' && path === '/units/PRX-1') {
          json(res, 200, { proxyRef: 'PRX-1', status: 'ACTIVE', expiresAt: '2026-11-21T10:00:00.000Z' });
          return true;
        }
        if (req.method === 'POST' && path === '/units/PRX-1/extend') {
          json(res, 200, { proxyRef: 'PRX-1', expiresAt: '2026-11-22T10:00:00.000Z', extended: true });
          return true;
        }
        return false;
      },
    });
    const home = tempHome();
    try {
      const r = await proxyctl(['units', 'extend', 'PRX-1', '--period', '24h', '--json'], {
        home,
        env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: FAKE_API_KEY },
      });
      expect(r.exitCode).toBe(0);
      expect(accountReads).toBe(2);
      expect(lines(r.stderr)).toEqual(['charged 3.50 USD']);
    } finally {
      home.cleanup();
    }
  });
});
