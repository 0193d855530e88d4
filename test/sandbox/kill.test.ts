// kill -9 of a `proxyctl sandbox --state FILE` process in the middle of purchases: no debit may
// survive without its unit (or its refund), and a retry with the same idempotency key after the
// restart buys each item exactly once. The sandbox runs as a real process; a real bulk create
// (the built binary) is buying from it when it is killed.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cents, proxyctl, type RunningSandbox, spawnSandbox, tempHome } from '../helpers/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-kill-'));
const home = tempHome();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  home.cleanup();
});

const START_BALANCE = 1000;
const POOL = 'US-11';

interface State {
  balanceUsd: number;
  inFlightPurchases: number;
  units: { proxyRef: string; pricePaid: number }[];
}

/** `proxyctl sandbox` on a state file, as its own process. */
function spawnOnState(file: string, engineDelayMs: number): Promise<RunningSandbox> {
  return spawnSandbox(home, [
    '--state',
    file,
    '--balance',
    String(START_BALANCE),
    '--engine-delay',
    String(engineDelayMs),
    '--rate-limit',
    '10000',
  ]);
}

async function state(sb: RunningSandbox): Promise<State> {
  const r = await fetch(`${sb.baseUrl}/_sandbox/state`, { headers: { 'x-api-key': sb.apiKey } });
  return (await r.json()) as State;
}

/** Polls the sandbox's own view until `ok` holds (no deadline of its own: the test timeout is the bound). */
async function until(sb: RunningSandbox, ok: (s: State) => boolean): Promise<State> {
  for (;;) {
    const s = await state(sb);
    if (ok(s)) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Money is conserved: what is left plus what every unit cost is the starting balance. */
function expectConserved(s: State): void {
  const spent = s.units.reduce((sum, u) => sum + cents(u.pricePaid), 0);
  expect(cents(s.balanceUsd) + spent).toBe(cents(START_BALANCE));
}

async function kill9(sb: RunningSandbox): Promise<void> {
  sb.child.kill('SIGKILL');
  await sb.child;
}

function createBatch(sb: RunningSandbox, baseKey: string, count: number) {
  return proxyctl(['units', 'create', '--pool', POOL, '--period', '3h', '--count', String(count), '--idempotency-key', baseKey, '--json'], {
    home,
    env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey },
    timeout: 120_000,
  });
}

describe('sandbox --state under kill -9', () => {
  it('a bulk create killed mid-batch: balance + unit prices stay the starting balance, and the re-run buys each item once', async () => {
    const file = join(dir, 'bulk.json');
    let sb = await spawnOnState(file, 300);
    const COUNT = 12;
    let expectedUnits = 0;
    try {
      for (let round = 0; round < 4; round++) {
        const baseKey = randomUUID();
        const batch = createBatch(sb, baseKey, COUNT);
        // Kill while purchases are between their debit and their unit.
        await until(sb, (s) => s.units.length >= expectedUnits + 2 && s.inFlightPurchases > 0);
        await kill9(sb);
        batch.kill('SIGKILL');
        await batch;

        sb = await spawnOnState(file, 300);
        const restored = await state(sb);
        expect(restored.inFlightPurchases).toBe(0);
        expectConserved(restored);

        // The same command with the same key finishes the batch: replays what was bought, buys the rest.
        const rerun = await createBatch(sb, baseKey, COUNT);
        expect(rerun.exitCode, String(rerun.stderr)).toBe(0);
        expect(JSON.parse(String(rerun.stdout))).toHaveLength(COUNT);
        expectedUnits += COUNT;
        const after = await state(sb);
        expect(after.units).toHaveLength(expectedUnits);
        expectConserved(after);
      }
    } finally {
      sb.child.kill('SIGTERM');
      await sb.child;
    }
  }, 240_000);

  it('a purchase in flight at kill -9 leaves no debit and no key: the retry with its key buys once, then replays', async () => {
    const file = join(dir, 'one.json');
    let sb = await spawnOnState(file, 2000);
    const key = randomUUID();
    const post = (s: RunningSandbox) =>
      fetch(`${s.baseUrl}/api/reseller/v1/units`, {
        method: 'POST',
        headers: { 'x-api-key': s.apiKey, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ poolId: POOL, period: '24h' }),
      });
    try {
      const lost = post(sb).catch((e: unknown) => e);
      await until(sb, (s) => s.inFlightPurchases === 1);
      await kill9(sb);
      expect(await lost).toBeInstanceOf(Error);

      sb = await spawnOnState(file, 20);
      expect(await state(sb)).toMatchObject({ balanceUsd: START_BALANCE, units: [], inFlightPurchases: 0 });

      const first = await post(sb);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const unit = (await first.json()) as { proxyRef: string };
      const again = await post(sb);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(((await again.json()) as { proxyRef: string }).proxyRef).toBe(unit.proxyRef);

      // And the acknowledged purchase survives a second kill -9, still replayed, still bought once.
      await kill9(sb);
      sb = await spawnOnState(file, 20);
      const third = await post(sb);
      expect(third.headers.get('idempotent-replayed')).toBe('true');
      const s = await state(sb);
      expect(s.units.map((u) => u.proxyRef)).toEqual([unit.proxyRef]);
      expectConserved(s);
    } finally {
      sb.child.kill('SIGTERM');
      await sb.child;
    }
  }, 120_000);
});
