// `units list --sort FIELD --country CC --protocol P --provider NAME [--utc]` against the sandbox:
// the order of the whole list (the first unit in it may be on the last page), the client-side
// filters, their checks before any request, and times: local on a terminal (--utc: UTC), ISO 8601
// UTC in json, jsonl and csv, and piped rows as they always were.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, type Kit, seedFleet, startKit } from '../helpers/index.js';

const HOUR = 3_600_000;
let kit: Kit;
let refs: string[];
let now: number;

beforeAll(async () => {
  kit = await startKit({ balance: 100 });
  // API order is by pool: BR-11, DE-11, GB-12, US-11, US-12. The soonest expiry and the newest
  // unit are in the last pool, so a sort that streamed page by page would get them wrong.
  refs = seedFleet(kit, [
    { poolId: 'US-12', hoursLeft: 50, protocol: 'http' }, // 0: T-Mobile
    { poolId: 'US-11', hoursLeft: 30 }, // 1: Verizon
    { poolId: 'DE-11', hoursLeft: 70, protocol: 'http_noauth' }, // 2: Telekom
    { poolId: 'GB-12', hoursLeft: 10, protocol: 'http' }, // 3: EE
    { poolId: 'BR-11', hoursLeft: 90 }, // 4: Vivo
    { poolId: 'US-12', hoursLeft: 3 }, // 5: T-Mobile
    { poolId: 'US-11', hoursLeft: 20, protocol: 'http_noauth' }, // 6: Verizon
    { poolId: 'DE-11', hoursLeft: 40 }, // 7: Telekom
    { poolId: 'GB-12', hoursLeft: 60 }, // 8: EE
    { poolId: 'BR-11', hoursLeft: 80, protocol: 'http' }, // 9: Vivo
    { poolId: 'US-11', hoursLeft: 100 }, // 10: Verizon
  ]);
  // Created an hour apart, in an order of their own: 4 is the oldest, 5 the newest.
  const w = kit.sb.world;
  now = w.clock.now();
  const created = [4, 2, 9, 0, 7, 1, 10, 3, 8, 6, 5];
  created.forEach((i, n) => {
    w.state.units.get(refs[i]!)!.createdAt = now - (20 - n) * HOUR;
  });
});
afterAll(() => kit.close());

const listed = async (...args: string[]) => {
  const r = await kit.run(['units', 'list', ...args, '--json']);
  expect({ args, code: r.exitCode, err: String(r.stderr) }).toEqual({ args, code: 0, err: '' });
  return JSON.parse(String(r.stdout)) as { proxyRef: string; expiresAt: string; createdAt: string; country: string; poolId: string }[];
};
const order = async (...args: string[]) => (await listed(...args)).map((u) => refs.indexOf(u.proxyRef));

describe('--sort', () => {
  it('orders the whole list by expiry, created, pool, country or ref; -FIELD is descending', async () => {
    expect(await order('--sort', 'expiry')).toEqual([5, 3, 6, 1, 7, 0, 8, 2, 9, 4, 10]);
    expect(await order('--sort', '-expiry')).toEqual([10, 4, 9, 2, 8, 0, 7, 1, 6, 3, 5]);
    expect(await order('--sort', 'created')).toEqual([4, 2, 9, 0, 7, 1, 10, 3, 8, 6, 5]);
    expect(await order('--sort', '-Created')).toEqual([5, 6, 8, 3, 10, 1, 7, 0, 9, 2, 4]);
    // Ties keep the API's order (by pool, then ref).
    const byPool = await listed('--sort', 'pool');
    expect(byPool.map((u) => u.poolId)).toEqual([
      'BR-11',
      'BR-11',
      'DE-11',
      'DE-11',
      'GB-12',
      'GB-12',
      'US-11',
      'US-11',
      'US-11',
      'US-12',
      'US-12',
    ]);
    const byCountry = await listed('--sort', '-country');
    expect(byCountry.map((u) => u.country)).toEqual(['US', 'US', 'US', 'US', 'US', 'GB', 'GB', 'DE', 'DE', 'BR', 'BR']);
    // Refs in number order: PRX-9 before PRX-10.
    expect(await order('--sort', 'ref')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await order('--sort', '-ref')).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('reads every page before the first unit, then --limit keeps the first N of the order', async () => {
    const before = kit.sb.requestLog().length;
    expect(await order('--sort', 'expiry', '--limit', '2')).toEqual([5, 3]);
    const asked = kit.sb.requestLog().slice(before);
    expect(asked.map((q) => new URL(q.url, kit.sb.baseUrl).searchParams.get('pageSize'))).toEqual(['200']);
    // One page (--page-size) is sorted as a page.
    expect(await order('--sort', 'expiry', '--page-size', '4', '-q')).toEqual([7, 2, 9, 4]);
  });

  it('sorts what the filters keep, in every format', async () => {
    expect(await order('--sort', 'expiry', '--country', 'us')).toEqual([5, 6, 1, 0, 10]);
    const conn = await kit.run(['units', 'list', '--sort', '-expiry', '--country', 'US', '--conn-format', '{ref}']);
    expect(String(conn.stdout)).toBe([10, 0, 1, 6, 5].map((i) => refs[i]).join('\n'));
  });
});

describe('client-side filters', () => {
  it('--country, --protocol and --provider, in any case, alone and together', async () => {
    expect(await order('--country', 'de')).toEqual([2, 7]);
    expect(await order('--protocol', 'http')).toEqual([9, 3, 0]);
    expect(await order('--protocol', 'inject')).toEqual([2, 6]);
    expect(await order('--provider', 'verizon')).toEqual([1, 6, 10]);
    expect(await order('--provider', 'T-Mobile', '--protocol', 'socks5')).toEqual([5]);
    expect(await order('--country', 'US', '--protocol', 'http_noauth', '--limit', '5')).toEqual([6]);
    const none = await kit.run(['units', 'list', '--country', 'FR']);
    expect(none.exitCode).toBe(0);
    expect(String(none.stderr)).toContain('No units found.');
  });

  it('a country the catalogue lacks warns with the nearest codes after the empty list', async () => {
    const r = await kit.run(['units', 'list', '--country', 'uk']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('');
    expect(String(r.stderr)).toContain('did you mean GB');
  });

  it('a bad value is exit 2 before any request', async () => {
    const before = kit.sb.requestLog().length;
    for (const [args, message] of [
      [['--sort', 'price'], '--sort must be one of expiry, created, pool, country, ref (-FIELD for descending), got "price"'],
      [['--sort', '--expiry'], '--sort must be one of'],
      [['--country', 'USA'], '--country must be a two-letter ISO country code'],
      [['--protocol', 'ftp'], 'invalid protocol "ftp"'],
      [['--provider', ' '], '--provider needs a carrier name'],
    ] as const) {
      const r = await kit.run(['units', 'list', ...args]);
      expect({ args, code: r.exitCode }).toEqual({ args, code: 2 });
      expect(String(r.stderr)).toContain(message);
    }
    expect(kit.sb.requestLog().length).toBe(before);
  });
});

describe('times', () => {
  const env = () => ({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey });
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  /** "Jan  8 14:05" for an instant seen `offsetMinutes` east of UTC. */
  const clock = (iso: string, offsetMinutes: number) => {
    const d = new Date(Date.parse(iso) + offsetMinutes * 60_000);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  };
  const rowOf = (screen: string, ref: string) =>
    stripVTControlCharacters(screen)
      .split(/\r?\n/)
      .find((l) => l.includes(`│ ${ref} `)) ?? '';

  it('a terminal shows when each unit expires in local time, --utc in UTC; json stays ISO 8601 UTC', async () => {
    const [unit] = await listed('--sort', 'expiry', '--limit', '1');
    expect(unit!.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    // India: UTC+5:30 all year, so the local time differs from UTC by a known amount.
    const local = inTerminal({ ...env(), TZ: 'Asia/Kolkata' }, ['units', 'list', '--sort', 'expiry'], { columns: 160 });
    expect((await local.child).exitCode, local.screen()).toBe(0);
    expect(local.screen()).toMatch(/│ ref +│ pool +│ provider +│ protocol +│ status +│ time left +│ expires +│ connection +│/);
    expect(rowOf(local.screen(), unit!.proxyRef)).toContain(`│ ${clock(unit!.expiresAt, 330)} │`);

    const utc = inTerminal({ ...env(), TZ: 'Asia/Kolkata' }, ['units', 'list', '--sort', 'expiry', '--utc'], { columns: 160 });
    expect((await utc.child).exitCode, utc.screen()).toBe(0);
    expect(utc.screen()).toContain('│ expires (UTC) │');
    expect(rowOf(utc.screen(), unit!.proxyRef)).toContain(`│ ${clock(unit!.expiresAt, 0)}  │`);
  });

  it('piped rows, csv and jsonl keep what they printed before, whatever the zone or --utc', async () => {
    const tz = { env: { TZ: 'Asia/Kolkata' } };
    const piped = await kit.run(['units', 'list', '--sort', 'expiry'], tz);
    const rows = String(piped.stdout).trimEnd().split('\n');
    // ref, pool, protocol, status, time left, connection: no expires column off a terminal.
    expect(rows.every((r) => r.split('\t').length === 6)).toBe(true);
    expect((await kit.run(['units', 'list', '--sort', 'expiry', '--utc'], tz)).stdout).toBe(piped.stdout);
    const csv = await kit.run(['units', 'list', '--sort', 'expiry', '-o', 'csv'], tz);
    const [header, first] = String(csv.stdout).split('\n');
    const at = header!.split(',').indexOf('expiresAt');
    expect(first!.split(',')[at]).toBe((await listed('--sort', 'expiry'))[0]!.expiresAt);
    const jsonl = await kit.run(['units', 'list', '--sort', 'expiry', '-o', 'jsonl', '--utc'], tz);
    expect(JSON.parse(String(jsonl.stdout).split('\n')[0]!).expiresAt).toMatch(/Z$/);
  });
});
