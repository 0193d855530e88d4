// csv has one fixed set of columns per resource, whatever the first row holds: a no-auth unit
// listed first no longer drops every socks5 unit's username and password (nor a socks5 unit
// first every allowedIps), a short plan's usage has the same header as a long plan's, and a
// field only a later row has still gets its column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  json,
  type Kit,
  proxyctl,
  type ScriptedServer,
  seedFleet,
  startKit,
  startScriptedServer,
  tempHome,
  type TempHome,
} from '../helpers/index.js';

const UNIT_HEADER = (
  'proxyRef,poolId,provider,country,state,rotation,ip,port,protocol,credentials.username,credentials.password,' +
  'status,createdAt,expiresAt,expiresIn,lastSwap,lastExtended,swapCount,allowedIps,description,period'
).split(',');

/** Rows of a csv without quoting (these values have no comma), as header → cell. */
function csvRows(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [head, ...lines] = text.trimEnd().split('\n');
  const header = head!.split(',');
  return { header, rows: lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v]))) };
}

/** What a csv cell holds for a JSON value: nothing for an absent or null field, arrays joined by ";". */
function cellOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  return Array.isArray(v) ? v.join(';') : String(v);
}

/** Every csv row says exactly what the JSON says, field by field. */
function expectSameAsJson(csv: Record<string, string>[], units: Record<string, unknown>[]) {
  expect(csv).toHaveLength(units.length);
  csv.forEach((row, i) => {
    const u = units[i]!;
    const creds = u.credentials as { username?: string; password?: string } | null;
    for (const field of UNIT_HEADER) {
      const value = field.startsWith('credentials.') ? creds?.[field.slice(12) as 'username' | 'password'] : u[field];
      expect(row[field], `${u.proxyRef as string} ${field}`).toBe(cellOf(value));
    }
  });
}

describe('units, against the sandbox', () => {
  let noAuthFirst: Kit;
  let socksFirst: Kit;
  beforeAll(async () => {
    [noAuthFirst, socksFirst] = await Promise.all([startKit({ balance: 500 }), startKit({ balance: 500 })]);
    seedFleet(noAuthFirst, [{ hoursLeft: 30, protocol: 'http_noauth' }, { hoursLeft: 40 }, { hoursLeft: 50 }]);
    seedFleet(socksFirst, [{ hoursLeft: 30 }, { hoursLeft: 40, protocol: 'http_noauth' }]);
  });
  afterAll(async () => {
    await Promise.all([noAuthFirst.close(), socksFirst.close()]);
  });

  it('a no-auth unit listed first: every socks5 row keeps its username and password', async () => {
    const r = await noAuthFirst.run(['units', 'list', '-o', 'csv']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const { header, rows } = csvRows(String(r.stdout));
    expect(header).toEqual(UNIT_HEADER);
    expect(rows.map((u) => [u.proxyRef, u['credentials.username'], u['credentials.password'], u.allowedIps])).toEqual([
      ['PRX-1', '', '', '203.0.113.7'],
      ['PRX-2', 'user2', 'pass2', ''],
      ['PRX-3', 'user3', 'pass3', ''],
    ]);
    const j = await noAuthFirst.run(['units', 'list', '--json']);
    expectSameAsJson(rows, JSON.parse(String(j.stdout)));
  });

  it('a socks5 unit listed first: the no-auth row keeps its allowedIps', async () => {
    const r = await socksFirst.run(['units', 'list', '-o', 'csv']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const { header, rows } = csvRows(String(r.stdout));
    expect(header).toEqual(UNIT_HEADER);
    expect(rows.map((u) => [u.proxyRef, u['credentials.username'], u.allowedIps])).toEqual([
      ['PRX-1', 'user1', ''],
      ['PRX-2', '', '203.0.113.7'],
    ]);
    const j = await socksFirst.run(['units', 'list', '--json']);
    expectSameAsJson(rows, JSON.parse(String(j.stdout)));
  });

  it('units get: a no-auth unit and a socks5 unit have the same columns', async () => {
    const [noAuth, socks] = await Promise.all([
      noAuthFirst.run(['units', 'get', 'PRX-1', '-o', 'csv']),
      noAuthFirst.run(['units', 'get', 'PRX-2', '-o', 'csv']),
    ]);
    expect(csvRows(String(noAuth.stdout)).header).toEqual(UNIT_HEADER);
    expect(csvRows(String(socks.stdout)).header).toEqual(UNIT_HEADER);
    expect(csvRows(String(socks.stdout)).rows[0]!['credentials.password']).toBe('pass2');
  });

  it('an empty list still prints the header', async () => {
    const r = await socksFirst.run(['units', 'list', '--status', 'RELEASED', '-o', 'csv']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe(UNIT_HEADER.join(','));
    expect(String(r.stderr)).toBe('No units found.');
  });

  it('units usage: a short plan (quota) and a long plan (daily limit) have the same columns', async () => {
    const refs: string[] = [];
    for (const period of ['3h', '7d']) {
      const c = await socksFirst.run(['units', 'create', '--pool', 'US-11', '--period', period, '--json', '-q']);
      refs.push(JSON.parse(String(c.stdout)).proxyRef as string);
    }
    const [short, long] = (await Promise.all(refs.map((ref) => socksFirst.run(['units', 'usage', ref, '-o', 'csv'])))).map((r) =>
      String(r.stdout),
    );
    const header = 'proxyRef,period,mode,measuredAt,quotaMb,usedMb,dailyLimitMb,todayMb,remainingMb,totalMb,throttled';
    expect(short!.split('\n')[0]).toBe(header);
    expect(long!.split('\n')[0]).toBe(header);
    expect(csvRows(short!).rows[0]).toMatchObject({ mode: 'pool', quotaMb: '1024', dailyLimitMb: '' });
    expect(csvRows(long!).rows[0]).toMatchObject({ mode: 'daily', quotaMb: '', dailyLimitMb: '4096' });
  });
});

describe('other resources, from a server whose first rows lack fields', () => {
  const page = (data: unknown[]) => ({ data, pagination: { page: 1, pageSize: 100, total: data.length, hasNext: false, hasPrev: false } });
  const DELIVERIES = [
    { id: 'dlv_1', event: 'unit.created', status: 'PENDING', attempts: 0, createdAt: '2026-11-23T13:59:00.000Z' },
    {
      id: 'dlv_2',
      event: 'unit.released',
      url: 'https://hooks.example.com/x',
      status: 'FAILED',
      attempts: 6,
      maxAttempts: 6,
      responseStatus: 500,
      lastError: 'receiver answered 500',
      nextAttemptAt: null,
      createdAt: '2026-11-23T14:00:00.000Z',
      deliveredAt: null,
    },
  ];
  const COUNTRIES = [
    { country: 'BR', poolCount: 3 },
    { country: 'DE', name: 'Germany', poolCount: 6, region: 'EU' },
  ];
  const POOLS = [
    { poolId: 'BR-11', provider: 'Vivo', country: 'BR', available: true },
    {
      poolId: 'DE-11',
      provider: 'Telekom',
      country: 'DE',
      state: 'berlin',
      rotation: '5m',
      available: false,
      prices: { '3h': 1.5, '30d': 70 },
    },
  ];
  let server: ScriptedServer;
  let home: TempHome;
  const run = (args: string[]) => proxyctl(args, { home, env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_csv' } });

  beforeAll(async () => {
    server = await startScriptedServer((req, res) => {
      const path = req.url.replace(/^\/api\/reseller\/v1/, '').replace(/\?.*$/, '');
      if (path === '/webhook/deliveries') return json(res, 200, page(DELIVERIES));
      if (path === '/countries') return json(res, 200, { data: COUNTRIES });
      if (path === '/pools') return json(res, 200, { data: POOLS });
      return json(res, 404, { error: { type: 'invalid_request_error', code: 'not_found', message: 'no such path' } });
    });
    home = tempHome();
  });
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('webhook log: every field of the delivery record, the first row empty where it has none', async () => {
    const r = await run(['webhook', 'log', '-o', 'csv']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toBe(
      [
        'id,event,url,status,attempts,maxAttempts,responseStatus,lastError,nextAttemptAt,createdAt,deliveredAt',
        'dlv_1,unit.created,,PENDING,0,,,,,2026-11-23T13:59:00.000Z,',
        'dlv_2,unit.released,https://hooks.example.com/x,FAILED,6,6,500,receiver answered 500,,2026-11-23T14:00:00.000Z,',
      ].join('\n'),
    );
  });

  it('countries (fields the API leaves open): the known ones, then a field only a later row has', async () => {
    const r = await run(['countries', '-o', 'csv']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toBe('country,name,poolCount,region\nBR,,3,\nDE,Germany,6,EU');
    // Piped (tab-separated), the columns come from every entry too.
    const tsv = await run(['countries']);
    expect(String(tsv.stdout)).toBe('BR\t3\t-\t-\nDE\t6\tGermany\tEU');
  });

  it('pools: one price column per period, whichever pool comes first', async () => {
    const r = await run(['pools', '-o', 'csv']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toBe(
      [
        'poolId,provider,country,state,rotation,available,prices.3h,prices.12h,prices.24h,prices.7d,prices.30d',
        'BR-11,Vivo,BR,,,true,,,,,',
        'DE-11,Telekom,DE,berlin,5m,false,1.5,,,,70',
      ].join('\n'),
    );
  });
});
