// Hours accept durations wherever they are asked for (`--expiring-within` on `units list` and
// `units extend`): a bare number is still hours, `36h`, `1d`, `1d12h` and `0.5d` are what they say,
// and anything that is not a whole number of hours, at least one, is exit 2 before any request.
// `spend --since/--until` read the same grammar (one duration grammar wherever one is taken).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit;
let refs: string[];
beforeAll(async () => {
  kit = await startKit({ balance: 1000 });
  refs = seedFleet(kit, [{ hoursLeft: 2 }, { hoursLeft: 11 }, { hoursLeft: 20 }, { hoursLeft: 30 }, { hoursLeft: 40 }, { hoursLeft: 200 }]);
});
afterAll(() => kit.close());

const listed = async (within: string) => {
  const r = await kit.run(['units', 'list', '--expiring-within', within, '--json']);
  expect({ within, code: r.exitCode, err: r.stderr }).toEqual({ within, code: 0, err: '' });
  return (JSON.parse(String(r.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef);
};

describe('--expiring-within takes hours or a duration', () => {
  it('units list: a bare number is hours; h, d, w and their sums are durations', async () => {
    expect(await listed('24')).toEqual(refs.slice(0, 3));
    expect(await listed('1d')).toEqual(refs.slice(0, 3));
    expect(await listed('24h')).toEqual(refs.slice(0, 3));
    expect(await listed('36h')).toEqual(refs.slice(0, 4));
    expect(await listed('1d12h')).toEqual(refs.slice(0, 4));
    expect(await listed('1.5d')).toEqual(refs.slice(0, 4));
    expect(await listed('0.5d')).toEqual(refs.slice(0, 2));
    expect(await listed(' 2D ')).toEqual(refs.slice(0, 5));
    expect(await listed('1w')).toEqual(refs.slice(0, 5));
    // The API is asked in whole hours, so the server filters as the client does.
    const asked = kit.sb
      .requestLog()
      .filter((q) => q.url.includes('expiringWithinHours'))
      .map((q) => new URL(q.url, kit.sb.baseUrl).searchParams.get('expiringWithinHours'));
    expect(asked).toEqual(['24', '24', '24', '36', '36', '36', '12', '48', '168']);
  });

  it('units extend selects by the same durations (a dry run quotes the selection)', async () => {
    const r = await kit.run(['units', 'extend', '--expiring-within', '1d12h', '--period', '7d', '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`4 units expiring within 36 h (${refs.slice(0, 4).join(', ')})`);
    expect((await kit.state()).units.every((u) => u.lastExtended === null)).toBe(true);
  });

  it('what is not a whole number of hours, at least 1, is exit 2 before any request', async () => {
    const before = kit.sb.requestLog().length;
    for (const bad of ['0', '0h', '1.5', '30m', '1.1h', '-2', 'soon', 'd', '', '1d-2h', '24hours']) {
      for (const cmd of [
        ['units', 'list'],
        ['units', 'extend', '--period', '7d', '--yes'],
      ]) {
        const r = await kit.run([...cmd, '--expiring-within', bad]);
        expect({ cmd, bad, code: r.exitCode }).toEqual({ cmd, bad, code: 2 });
        expect(r.stderr).toContain(`--expiring-within must be a whole number of hours, at least 1 (24, 36h, 1d, 1d12h, 1w); got "${bad}"`);
        expect(String(r.stdout)).toBe('');
      }
    }
    expect(kit.sb.requestLog().length).toBe(before);
  });
});

describe('spend --since and --until read the same duration grammar', () => {
  it('1d12h, 1w, 5m, 90m and a bare number of hours are accepted; the window is what they say', async () => {
    const bought = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '3h', '--yes']);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    const since = async (...args: string[]) => {
      const r = await kit.run(['spend', ...args, '--json']);
      expect({ args, code: r.exitCode, err: String(r.stderr) }).toMatchObject({ args, code: 0 });
      return (JSON.parse(String(r.stdout)) as { ref: string }[]).length;
    };
    for (const d of ['1d12h', '1w', '5m', '90m', '24', '1.5d', ' 2D ']) expect(await since('--since', d), d).toBe(1);
    // Bought just now: nothing is older than 90 minutes.
    expect(await since('--until', '90m')).toBe(0);
    for (const bad of ['soon', '1d-2h', '24hours', '5 mins']) {
      const r = await kit.run(['spend', '--since', bad]);
      expect({ bad, code: r.exitCode }).toEqual({ bad, code: 2 });
      expect(r.stderr).toContain('--since must be a date (YYYY-MM-DD), a time (ISO 8601) or a duration ago (24h, 1d12h, 1w, 90m)');
    }
  });
});
