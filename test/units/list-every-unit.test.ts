// `units list` returns every unit, not the first page of 50: `-o conn > proxies.txt` is the whole
// export. `--limit N` caps it (asking for no more than it needs), `--page`/`--page-size` still
// fetch exactly one page, and `--all` stays accepted. The built binary against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, seedUnits, startKit } from '../helpers/index.js';

const UNITS = 120;
let kit: Kit;
let every: string[];

beforeAll(async () => {
  kit = await startKit({ rateLimit: 100_000 });
  seedUnits(kit, UNITS);
  // The sandbox's own view, in the API's order (sorted by poolId, then purchase).
  const all = await kit.api<{ data: { ip: string; port: number; credentials: { username: string; password: string } }[] }>(
    '/units?pageSize=200',
  );
  every = all.data.map((u) => `${u.ip}:${u.port}:${u.credentials.username}:${u.credentials.password}`);
  expect(every).toHaveLength(UNITS);
});
afterAll(() => kit.close());

const lines = (out: unknown) => String(out).split('\n').filter(Boolean);
/** The GET /units requests a --debug run made, as their query strings. */
const unitRequests = (stderr: unknown) =>
  [...String(stderr).matchAll(/\[debug\] → GET \S+\/units\?(\S*)/g)].map((m) => new URLSearchParams(m[1]).toString());

describe('units list returns every unit', () => {
  it('with no flags, -o conn prints all 120 units in the API order, from one request of 200; --all prints the same', async () => {
    const r = await kit.run(['units', 'list', '-o', 'conn', '--debug']);
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout)).toEqual(every);
    expect(unitRequests(r.stderr)).toEqual(['page=1&pageSize=200']);
    const all = await kit.run(['units', 'list', '--all', '-o', 'conn']);
    expect(all.exitCode).toBe(0);
    expect(all.stdout).toBe(r.stdout);
  });

  it('json and csv hold every unit too', async () => {
    const j = await kit.run(['units', 'list', '--json']);
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(String(j.stdout))).toHaveLength(UNITS);
    const c = await kit.run(['units', 'list', '-o', 'csv']);
    expect(lines(c.stdout)).toHaveLength(UNITS + 1);
  });

  it('--limit 7 prints the first 7, from one request of 7', async () => {
    const r = await kit.run(['units', 'list', '--limit', '7', '-o', 'conn', '--debug']);
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout)).toEqual(every.slice(0, 7));
    expect(unitRequests(r.stderr)).toEqual(['page=1&pageSize=7']);
  });

  it('streams page after page; --limit 70 with --page-size 50 stops in page 2; --limit 130 prints all 120', async () => {
    const paged = await kit.run(['units', 'list', '--all', '--page-size', '50', '-o', 'conn', '--debug']);
    expect(lines(paged.stdout)).toEqual(every);
    expect(unitRequests(paged.stderr)).toEqual(['page=1&pageSize=50', 'page=2&pageSize=50', 'page=3&pageSize=50']);
    const more = await kit.run(['units', 'list', '--limit', '130', '-o', 'conn']);
    expect(lines(more.stdout)).toEqual(every);
    const r = await kit.run(['units', 'list', '--all', '--limit', '70', '--page-size', '50', '-o', 'conn', '--debug']);
    expect(lines(r.stdout)).toEqual(every.slice(0, 70));
    expect(unitRequests(r.stderr)).toEqual(['page=1&pageSize=50', 'page=2&pageSize=50']);
  });

  it('--page 2 --page-size 50 prints exactly that page, and says there is more', async () => {
    const r = await kit.run(['units', 'list', '--page', '2', '--page-size', '50', '-o', 'conn']);
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout)).toEqual(every.slice(50, 100));
    expect(String(r.stderr)).toContain('page 2 of 3 (120 units); drop --page/--page-size for every unit');
    // --page-size alone is the first page of that size; --page alone a page of the default 50.
    const first = await kit.run(['units', 'list', '--page-size', '20', '-o', 'conn']);
    expect(lines(first.stdout)).toEqual(every.slice(0, 20));
    const third = await kit.run(['units', 'list', '--page', '3', '-o', 'conn']);
    expect(lines(third.stdout)).toEqual(every.slice(100, 120));
  });

  it('bad --limit values and --all with --page are usage errors before any request (exit 2)', async () => {
    for (const [args, message] of [
      [['--limit', '0'], '--limit must be a whole number from 1 up, got "0"'],
      [['--limit', 'ten'], '--limit must be a whole number from 1 up, got "ten"'],
      [['--all', '--page', '2'], '--all reads every page; drop --page'],
    ] as const) {
      const r = await kit.run(['units', 'list', ...args, '--debug']);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toContain(message);
      expect(unitRequests(r.stderr)).toEqual([]);
    }
  });

  it('help says every unit is the default and --all is kept', async () => {
    const r = await kit.run(['units', 'list', '--help']);
    expect(String(r.stdout)).toMatch(/--limit <n>\s+at most this many items/);
    expect(String(r.stdout)).toMatch(/--all\s+every page, streamed \(the default; kept for\s+scripts\)/);
  });
});
