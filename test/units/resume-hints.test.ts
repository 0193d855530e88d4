// What a purchase says about resuming is usable and only said when true: a guided purchase's
// resume hint is the whole command (pool, period, count, customer and key), which run again
// replays the units without paying twice; an over-budget create prints no key line before its
// exit-12 refusal (nothing to resume); and --fit's dry-run quote lists only the units it extends.
import { afterEach, describe, expect, it } from 'vitest';
import { cents, inTerminal, KEY, type Kit, pickPools, renderScreen, startKit, waitForText } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey }) as Record<string, string>;

/** The screen's logical lines: rows the terminal wrapped joined back to the line they continue. */
async function logicalLines(raw: string, columns: number): Promise<string[]> {
  const lines: string[] = [];
  for (const row of await renderScreen(raw, columns)) {
    if (row.wrapped && lines.length > 0) lines[lines.length - 1] += row.text;
    else lines.push(row.text);
  }
  return lines;
}

describe('resume hints', () => {
  it('a guided purchase prints the whole command to resume it, and that command replays without charging', {
    timeout: 120_000,
  }, async () => {
    kit = await startKit({ balance: 100 });
    const t = inTerminal(kitEnv(kit), ['units', 'create'], { columns: 80, rows: 40 });
    await waitForText(t, 'Country (type a code or a name)', 0);
    let from = t.screen().length;
    t.key('DE');
    await waitForText(t, /❯ DE /, from);
    t.key(KEY.enter);
    for (const prompt of ['Pool', 'Period', 'Protocol']) {
      await waitForText(t, prompt, from);
      from = t.screen().length;
      t.key(KEY.enter);
    }
    await waitForText(t, 'How many units (1 to 500) (1)', from);
    t.key(`3${KEY.enter}`);
    await waitForText(t, 'For which customer (Enter for none)', from);
    from = t.screen().length;
    t.key(`acme${KEY.enter}`);
    await waitForText(t, 'Buy for', from);
    t.key(`y${KEY.enter}`);
    const done = await t.child;
    expect(done.exitCode, t.screen()).toBe(0);

    const lines = await logicalLines(t.screen(), 80);
    const hint = lines
      .map((l) => /^idempotency key (\S+) \(if this is interrupted, run (proxyctl .+) to resume without buying twice\)$/.exec(l))
      .find(Boolean);
    expect(hint, lines.join('\n')).toBeTruthy();
    const [, key, command] = hint!;
    const pool = (await kit.state()).units[0]!.poolId;
    expect(command).toMatch(
      new RegExp(
        `^proxyctl units create --pool ${pool} --period 3h( --protocol socks5)? --count 3 --customer acme --idempotency-key ${key}$`,
      ),
    );

    // The command as printed finishes the batch: the same 3 units, nothing charged again.
    const before = await kit.state();
    const again = await kit.run([...command!.split(' ').slice(1), '--json']);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    const replayed = (JSON.parse(String(again.stdout)) as { proxyRef: string; description: string }[]).map((u) => u.proxyRef).sort();
    expect(replayed).toEqual(before.units.map((u) => u.proxyRef).sort());
    const after = await kit.state();
    expect([after.units.length, cents(after.balanceUsd)]).toEqual([3, cents(before.balanceUsd)]);
  });

  it('an over-budget create prints no idempotency key line before its exit-12 refusal; one within budget does', async () => {
    kit = await startKit({ balance: 1000 });
    const [pool] = await pickPools(kit);
    const price = pool!.prices['24h']!;
    for (const [key, value] of [
      ['max-spend-per-run', (price * 2).toFixed(2)],
      ['max-spend-per-day', (price * 4).toFixed(2)],
    ] as const) {
      const set = await kit.run(['config', 'set', key, value]);
      expect(set.exitCode, String(set.stderr)).toBe(0);
    }
    const create = (count: number) =>
      kit!.run(['units', 'create', '--pool', pool!.poolId, '--period', '24h', '--count', String(count), '--yes']);
    // Over max-spend-per-run (refused by the policy) and over the day's budget (refused by the hold).
    for (const count of [3, 5]) {
      const r = await create(count);
      expect(r.exitCode, String(r.stderr)).toBe(12);
      expect(String(r.stderr), `${count} units`).not.toContain('idempotency key');
    }
    expect((await kit.state()).units).toHaveLength(0);
    const ok = await create(2);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(String(ok.stderr)).toMatch(/^idempotency key [0-9a-f-]{36} \(if this is interrupted/m);
  });

  it('--fit --dry-run quotes only the units it fits, names the ones left out, charges nothing', async () => {
    kit = await startKit({ balance: 1000 });
    const [pool] = await pickPools(kit);
    const refs: string[] = [];
    for (const period of ['24h', '3h', '12h']) {
      const r = await kit.run(['units', 'create', '--pool', pool!.poolId, '--period', period, '--json']);
      refs.push((JSON.parse(String(r.stdout)) as { proxyRef: string }).proxyRef);
    }
    const [day, three, twelve] = refs;
    const price = pool!.prices['7d']!;
    const before = await kit.state();
    const r = await kit.run([
      'units',
      'extend',
      ...refs,
      '--period',
      '7d',
      '--max-spend',
      (price * 2).toFixed(2),
      '--fit',
      '--dry-run',
      '--json',
    ]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const quote = JSON.parse(String(r.stdout)) as { refs: string[]; count: number; total: number };
    expect([...quote.refs].sort()).toEqual([three, twelve].sort());
    expect([quote.count, cents(quote.total)]).toEqual([2, cents(price * 2)]);
    expect(String(r.stderr)).toContain(`left out (latest expiry): ${day}`);
    const after = await kit.state();
    expect([cents(after.balanceUsd), after.units.map((u) => u.lastExtended)]).toEqual([cents(before.balanceUsd), [null, null, null]]);
  });
});
