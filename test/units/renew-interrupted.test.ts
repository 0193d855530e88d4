// Ctrl-C in the middle of a renewal: a real SIGINT to the spawned binary while it waits for the
// rate budget with some units extended and the rest not started. What it printed must be exactly
// what the server did: the units shown extended gained one period, the others did not move, and
// the balance went down by one price per unit shown; exit 130.
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cents, cleanEnv, type Kit, outputUntil, seedFleet, startKit } from '../helpers/index.js';

const HOUR = 3_600_000;
let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

describe('units extend --expiring-within, interrupted', () => {
  it('SIGINT mid-run: the extended units are printed, exactly those were charged, exit 130', async () => {
    // A budget of 12 requests a minute: the quote's reads and a few extends (a read and a POST each) fit, then proxyctl waits.
    kit = await startKit({ balance: 1000, rateLimit: 12, rateWindowSeconds: 60 });
    const refs = seedFleet(
      kit,
      Array.from({ length: 12 }, () => ({ hoursLeft: 5 })),
    );
    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const price = prices['7d']!;
    const before = new Map((await kit.state()).units.map((u) => [u.proxyRef, Date.parse(u.expiresAt)]));
    const balanceBefore = (await kit.state()).balanceUsd;

    const child = execa('node', [BIN, 'units', 'extend', '--expiring-within', '24', '--period', '7d', '--yes', '--json'], {
      reject: false,
      env: cleanEnv({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey }),
      timeout: 60_000,
    });
    await outputUntil(child, 'stderr', (t) => /\] extended PRX-/.test(t));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);

    const printed = JSON.parse(String(r.stdout)) as { proxyRef: string; extended: boolean }[];
    const shown = printed.filter((u) => u.extended).map((u) => u.proxyRef);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(refs.length);
    const after = (await kit.state()).units;
    const moved = after.filter((u) => Date.parse(u.expiresAt) !== before.get(u.proxyRef)).map((u) => u.proxyRef);
    expect(moved.sort()).toEqual([...shown].sort());
    for (const u of after.filter((x) => moved.includes(x.proxyRef))) {
      expect((Date.parse(u.expiresAt) - before.get(u.proxyRef)!) / HOUR).toBe(168);
    }
    expect(cents(balanceBefore - (await kit.state()).balanceUsd)).toBe(shown.length * cents(price));
  }, 90_000);
});
