// Hours accept durations wherever they are asked for (`--expiring-within` on `units list` and
// `units extend`): a bare number is still hours, `36h`, `1d`, `1d12h` and `0.5d` are what they say,
// and anything that is not a whole number of hours, at least one, is exit 2 before any request.
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
        expect(r.stderr).toContain(`--expiring-within must be hours (a whole number like 24) or a duration like 36h, 1d or 1d12h`);
        expect(String(r.stdout)).toBe('');
      }
    }
    expect(kit.sb.requestLog().length).toBe(before);
  });
});
