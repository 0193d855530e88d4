// `proxyctl status` against a sandbox in a known state: one expired unit, three active (one of
// them expiring within 24 h), one failed webhook delivery. The JSON agrees with the sandbox's own
// state, it takes a handful of requests (counted in the sandbox's request log), and on an
// 80-column terminal every line fits, with expiry in relative time.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src/output/status.js';
import { inTerminal, json, type Kit, startKit, startScriptedServer } from '../helpers/index.js';

let kit: Kit;
let failing: Awaited<ReturnType<typeof startScriptedServer>>;
const refs: Record<string, string> = {};

async function buy(name: string, pool: string, period: string) {
  const r = await kit.run(['units', 'create', '--pool', pool, '--period', period, '--json', '-q']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  refs[name] = JSON.parse(String(r.stdout)).proxyRef as string;
}

beforeAll(async () => {
  kit = await startKit({ balance: 500 });
  failing = await startScriptedServer((_req, res) => json(res, 500, { error: 'down' }));
  const hook = await fetch(`${kit.sb.baseUrl}/api/reseller/v1/webhook`, {
    method: 'PATCH',
    headers: { 'x-api-key': kit.sb.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${failing.url}/hook` }),
  });
  expect(hook.status).toBe(200);
  // D's unit.created fails every attempt: FAILED after the retries (1m, 5m, 30m, 2h, 6h).
  await buy('D', 'DE-11', '30d');
  await kit.sb.deliveriesIdle();
  for (const seconds of [60, 300, 1800, 7200, 21600]) {
    kit.sb.advance(seconds);
    await kit.sb.deliveriesIdle();
  }
  await buy('A', 'US-11', '3h');
  kit.sb.advance(4 * 3600); // A expires
  await kit.sb.deliveriesIdle();
  await buy('B', 'US-11', '24h');
  await buy('C', 'GB-11', '7d');
  kit.sb.advance(3600); // B: 23 h left
  await kit.sb.deliveriesIdle();
});
afterAll(async () => {
  await kit.close();
  await failing.close();
});

type StatusJson = StatusReport & { units: { expiring: { expiresIn: number }[] } };

describe('proxyctl status', () => {
  it('--json agrees with the sandbox: balance, counts by status and country, expiring, runway, failed deliveries', async () => {
    const before = kit.sb.requestLog().length;
    const r = await kit.run(['status', '--json']);
    const sent = kit.sb.requestLog().slice(before);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const s = JSON.parse(String(r.stdout)) as StatusJson;

    const state = await kit.state();
    const sandbox = kit.sb.state() as { deliveries: { status: string }[] };
    const prices = (await kit.api<{ prices: Record<string, number> }>('/me')).prices;
    expect(s.balanceUsd).toBe(state.balanceUsd);
    expect(s.units).toMatchObject({
      total: 4,
      active: 3,
      byStatus: { ACTIVE: 3, EXPIRED: 1 },
      byCountry: { US: 1, GB: 1, DE: 1 },
      expiringWithin24h: 1,
    });
    expect(s.units.expiring.map((u) => u.proxyRef)).toEqual([refs.B]);
    const left = s.units.expiring[0]!.expiresIn;
    expect(left > 22 * 3600 && left <= 23 * 3600, String(left)).toBe(true);
    // Runway: the balance over the daily cost of renewing B (24h), C (7d) and D (30d) at today's prices.
    const perDay = Math.round((prices['24h']! + prices['7d']! / 7 + prices['30d']! / 30) * 100) / 100;
    expect(s.renewalPerDayUsd).toBe(perDay);
    expect(s.runwayDays).toBe(Math.floor((state.balanceUsd / perDay) * 10) / 10);
    expect(s.webhook).toMatchObject({ enabled: true, failedLastDay: sandbox.deliveries.filter((d) => d.status === 'FAILED').length });
    expect(s.webhook.failedLastDay).toBe(1);
    expect(s.uptime?.windows).toHaveLength(4);

    // A handful: /me, one page of units, one page of failed deliveries, four uptime windows.
    expect(sent.map((q) => `${q.method} ${q.url.split('?')[0]}`).sort()).toEqual(
      [
        'GET /api/reseller/v1/me',
        'GET /api/reseller/v1/units',
        'GET /api/reseller/v1/webhook/deliveries',
        ...Array(4).fill('GET /api/reseller/v1/me/uptime'),
      ].sort(),
    );
  });

  it('on an 80-column terminal: every line fits, expiry is relative', async () => {
    const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
    const t = inTerminal(env, ['status'], { columns: 80 });
    const r = await t.child;
    expect(r.exitCode, t.screen()).toBe(0);
    const lines = stripVTControlCharacters(t.screen()).split(/\r?\n/).filter(Boolean);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^Balance {3}\d+\.\d{2} USD, runway \d+(\.\d)? days \(\d+\.\d{2} USD a day renews 3 active units\)$/);
    expect(lines).toContain('Units     3 active, 1 expired; active by country: DE 1, GB 1, US 1');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^Expiring  1 within 24 h: ${refs.B} in 2[23]h( \\d+m)?$`)));
    expect(lines).toContainEqual(expect.stringMatching(/^Uptime {4}\S{4} /));
    expect(lines).toContain('Webhooks  1 failed delivery in 24 h; see proxyctl webhook log --status FAILED');
  });

  it('piped: one key<TAB>value line per value, the keys the JSON paths, times ISO; --json unchanged', async () => {
    const [piped, asJson] = await Promise.all([kit.run(['status']), kit.run(['status', '--json'])]);
    expect(piped.exitCode, String(piped.stderr)).toBe(0);
    const s = JSON.parse(String(asJson.stdout)) as StatusJson;
    const lines = String(piped.stdout).trimEnd().split('\n');
    // Every line one key and one value, each key once: what grep, cut -f2 and awk need.
    for (const line of lines) expect(line).toMatch(/^[^\t\s]+\t[^\t]*$/);
    const keys = lines.map((l) => l.split('\t')[0]!);
    expect(new Set(keys).size).toBe(keys.length);
    const value = (key: string) => lines.find((l) => l.startsWith(`${key}\t`))?.split('\t')[1];
    expect(value('balanceUsd')).toBe(String((await kit.state()).balanceUsd));
    expect(value('runwayDays')).toBe(String(s.runwayDays));
    expect(lines).toEqual(
      expect.arrayContaining([
        'units.total\t4',
        'units.active\t3',
        'units.byStatus.ACTIVE\t3',
        'units.byStatus.EXPIRED\t1',
        'units.byCountry.DE\t1',
        'units.byCountry.GB\t1',
        'units.byCountry.US\t1',
        'units.expiringWithin24h\t1',
        `units.expiring.${refs.B}.expiresAt\t${s.units.expiring[0]!.expiresAt}`,
        'webhook.enabled\ttrue',
        'webhook.failedLastDay\t1',
      ]),
    );
    expect(value(`units.expiring.${refs.B}.expiresIn`)).toMatch(/^\d+$/);
    // Four windows, or (the uptime budget of 10 a minute spent by the runs before) none, said as "-".
    const windows = keys.filter((k) => k.startsWith('uptime.windows.') && k.endsWith('.uptimePercent'));
    if (windows.length === 0) expect(value('uptime')).toBe('-');
    else expect(windows).toEqual([0, 1, 2, 3].map((i) => `uptime.windows.${i}.uptimePercent`));
    expect(String(piped.stdout)).not.toContain('\u001b[');
    // -o table piped still draws the screen, for people.
    const table = await kit.run(['status', '-o', 'table']);
    expect(String(table.stdout)).toContain('Units     3 active, 1 expired; active by country: DE 1, GB 1, US 1');
  });
});

it('the uptime budget spent: the rest of the screen still shows, at once, with the uptime line saying why', async () => {
  const tight = await startKit({ uptimeRateLimit: 2 });
  try {
    const json = await tight.run(['status', '--json']);
    expect(json.exitCode, String(json.stderr)).toBe(0);
    expect(JSON.parse(String(json.stdout))).toMatchObject({ balanceUsd: (await tight.state()).balanceUsd, uptime: null });
    const text = await tight.run(['status', '-o', 'table']);
    expect(text.exitCode).toBe(0);
    expect(String(text.stdout)).toContain('Uptime    not shown: the uptime budget (10 a minute) is spent; try again in a minute');
    const piped = await tight.run(['status']);
    expect(piped.exitCode).toBe(0);
    expect(String(piped.stdout).split('\n')).toContain('uptime\t-');
  } finally {
    await tight.close();
  }
});
