// A unit that no longer runs never shows a time left: a released unit says "released" (the API
// gives its expiry, which would still read as days left), an expired one says when it expired.
// On a terminal (colour on) and piped, in lists and in `units get`.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAKE_API_KEY, inTerminal, json, type Kit, seedFleet, startFakeApi, startKit, tempHome } from '../helpers/index.js';

let kit: Kit;
let running: string;
let expired: string;
let released: string;
beforeAll(async () => {
  kit = await startKit();
  [running, expired, released] = seedFleet(kit, [{ hoursLeft: 30 }, { hoursLeft: -74 }, { hoursLeft: 48, released: true }]) as [
    string,
    string,
    string,
  ];
});
afterAll(() => kit.close());

const env = () => ({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, NO_COLOR: '' });

/** The time-left cell of each piped row, by ref. */
function timeLeftByRef(stdout: unknown): Record<string, string> {
  return Object.fromEntries(
    String(stdout)
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'))
      .map((c) => [c[0]!, c[4]!]),
  );
}

it('piped: the expired unit says when it expired, the released one that it was released', async () => {
  const all = await kit.run(['units', 'list', '--include-expired']);
  expect(all.exitCode, String(all.stderr)).toBe(0);
  expect(timeLeftByRef(all.stdout)).toEqual({ [running]: '1d 6h', [expired]: 'expired 3d 2h ago' });
  const gone = await kit.run(['units', 'list', '--status', 'RELEASED']);
  expect(gone.exitCode, String(gone.stderr)).toBe(0);
  expect(timeLeftByRef(gone.stdout)).toEqual({ [released]: 'released' });
});

it('on a terminal: "expired 3d 2h ago" and "released", never "in …"', async () => {
  for (const args of [
    ['units', 'list', '--include-expired'],
    ['units', 'list', '--status', 'RELEASED'],
  ]) {
    const t = inTerminal(env(), args, { columns: 100 });
    const r = await t.child;
    expect(r.exitCode, t.screen()).toBe(0);
    const rows = stripVTControlCharacters(t.screen()).split(/\r?\n/);
    if (args.includes('RELEASED')) {
      expect(rows.find((l) => l.includes(released))).toMatch(/│ released +│/);
    } else {
      expect(rows.find((l) => l.includes(expired))).toMatch(/│ expired 3d 2h ago +│/);
      expect(rows.find((l) => l.includes(running))).toMatch(/│ in 1d 6h +│/);
    }
  }
});

it('units get of an expired unit: the time-left row says when it expired, piped and on a terminal', async () => {
  const piped = await kit.run(['units', 'get', expired]);
  expect(piped.exitCode, String(piped.stderr)).toBe(0);
  expect(String(piped.stdout).split('\n')).toContain('time left\texpired 3d 2h ago');
  const t = inTerminal(env(), ['units', 'get', expired], { columns: 80 });
  const r = await t.child;
  expect(r.exitCode, t.screen()).toBe(0);
  expect(stripVTControlCharacters(t.screen())).toMatch(/│ time left +│ expired 3d 2h ago +│/);
});

it('status on a terminal: a unit past its expiry that the server still calls ACTIVE says when it expired', async () => {
  const expiresAt = new Date(Date.now() - 2 * 3600_000 - 60_000).toISOString();
  const unit = { proxyRef: 'PRX-9', poolId: 'DE-3', country: 'DE', status: 'ACTIVE', period: '24h', expiresAt };
  const api = await startFakeApi({
    route: (_req, res, path) => {
      if (path === '/units') json(res, 200, { data: [unit], pagination: { page: 1, hasNext: false } });
      else if (path === '/webhook/deliveries') json(res, 200, { data: [], pagination: { page: 1, hasNext: false } });
      else return false;
      return true;
    },
  });
  const home = tempHome();
  try {
    const t = inTerminal({ ...home.env, PROXYCTL_BASE_URL: api.url, PROXYCTL_API_KEY: FAKE_API_KEY }, ['status'], { columns: 100 });
    const r = await t.child;
    expect(r.exitCode, t.screen()).toBe(0);
    expect(stripVTControlCharacters(t.screen())).toMatch(/Expiring +1 within 24 h: PRX-9 expired 2h( 1m)? ago/);
  } finally {
    home.cleanup();
    await api.close();
  }
});
