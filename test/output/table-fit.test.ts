// Tables fit the terminal (a real pty from script(1), sized with stty or, when it reports no size,
// COLUMNS): low-priority columns are hidden first with one hint on stderr, then long cells are
// shortened; no line is wider than the terminal. Piped output is left exactly as it was.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, json, proxyctl, type ScriptedServer, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

const unit = (n: number) => ({
  proxyRef: `PRX-${n}`,
  poolId: 'BR-11',
  provider: 'Vivo',
  country: 'BR',
  protocol: 'socks5',
  ip: '198.51.100.36',
  port: 10130 + n,
  credentials: { username: `uzby6972${n}u`, password: `jcVWpMP8nEcYxq${n}` },
  status: 'ACTIVE',
  expiresIn: 10_740,
});
const UNITS = [unit(1), unit(2)];
const pool = (poolId: string, provider: string, state: string) => ({
  poolId,
  provider,
  country: poolId.slice(0, 2),
  state,
  rotation: '5m',
  available: true,
});
const POOLS = [pool('BR-11', 'Vivo', 'sao-paulo'), pool('CA-12', 'Rogers', 'ontario')];
const PRICES = { '3h': 1.28, '12h': 2.55, '24h': 4.25, '7d': 21.25, '30d': 68 };
const DELIVERIES = [
  {
    id: 'dlv_01HZX3K9Q2M4N6P8R0T2V4X6Z8',
    event: 'unit.expiring_soon',
    status: 'FAILED',
    attempts: 3,
    maxAttempts: 6,
    responseStatus: 500,
    nextAttemptAt: '2026-11-23T14:05:00.000Z',
    createdAt: '2026-11-23T13:59:00.000Z',
    lastError: 'receiver answered 500',
  },
];
const UPTIME = {
  from: '2026-11-22T13:41:16.863Z',
  to: '2026-11-23T13:41:16.863Z',
  uptimePercent: 99.5,
  slotsUp: 287,
  slotsDown: 1,
  slotsExcluded: 0,
  units: [{ proxyRef: 'PRX-1', poolId: 'BR-11', uptimePercent: 99.5, slotsUp: 287, slotsDown: 1, slotsExcluded: 0 }],
};
const HOOK_URL = 'https://hooks.example.com/a/very/long/path/that/goes/on/and/on/until/it/overflows?x=1';
const page = (data: unknown[]) => ({ data, pagination: { page: 1, pageSize: 100, total: data.length, hasNext: false, hasPrev: false } });

let server: ScriptedServer;
let home: TempHome;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startScriptedServer((req, res) => {
    const path = req.url.replace(/^\/api\/reseller\/v1/, '').replace(/\?.*$/, '');
    if (path === '/units') return json(res, 200, page(UNITS));
    if (path === '/pools') return json(res, 200, { data: POOLS, prices: PRICES });
    if (path === '/webhook/deliveries') return json(res, 200, page(DELIVERIES));
    if (path === '/me/uptime') return json(res, 200, UPTIME);
    if (path === '/webhook') return json(res, 200, { url: HOOK_URL, enabled: true, secret: null });
    return json(res, 404, { error: { type: 'invalid_request_error', code: 'not_found', message: 'no such path' } });
  });
  home = tempHome();
  env = { ...home.env, PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_tables' };
});

afterAll(async () => {
  await server.close();
  home.cleanup();
});

/** The lines as a terminal shows them: what follows a return to column 1 overwrites the line, codes take no room. */
function visibleLines(screen: string): string[] {
  return screen.split(/\r?\n/).map((line) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the cursor-to-column-1 code is the point
    const parts = line.split(/\r|\u001b\[1G/);
    return stripVTControlCharacters(parts[parts.length - 1]!);
  });
}

async function onTerminal(args: string[], columns: number, extraEnv: Record<string, string> = {}) {
  const t = inTerminal({ ...env, ...extraEnv }, args, { columns });
  const r = await t.child;
  expect(r.exitCode, t.screen()).toBe(0);
  const lines = visibleLines(t.screen());
  for (const line of lines) expect(line.length, `${line}\n${t.screen()}`).toBeLessThanOrEqual(columns);
  // The hint may wrap at the terminal's width: compare it as one line.
  return { screen: t.screen().replace(/\r?\n(?=\S)/g, (m, i: number) => (/[│┘┐]$/.test(t.screen().slice(0, i)) ? m : ' ')), lines };
}

const header = (lines: string[]) => lines.find((l) => l.startsWith('│ ') && /│ (ref|pool|id|unit) /.test(l)) ?? '';

describe('units list', () => {
  it('80 columns: the empty expires, provider, pool and protocol are hidden, the connection string stays whole', async () => {
    const { screen, lines } = await onTerminal(['units', 'list'], 80);
    // These units carry no expiresAt: the empty column goes first. Status comes back into the room
    // the wider protocol column could not use.
    expect(screen).toContain('4 columns hidden to fit 80 columns: expires (empty), provider, pool, protocol; -o json shows all');
    expect(
      header(lines)
        .split('│')
        .map((h) => h.trim()),
    ).toEqual(['', 'ref', 'status', 'time left', 'connection', '']);
    expect(screen).toContain('198.51.100.36:10131:uzby69721u:jcVWpMP8nEcYxq1');
  });

  it('120 columns: every column, no hint', async () => {
    const { screen, lines } = await onTerminal(['units', 'list'], 120);
    expect(screen).not.toContain('hidden');
    expect(header(lines)).toMatch(/ref .*pool .*provider .*protocol .*status .*time left .*connection/);
  });

  it('40 columns: the connection string is never cut: it is hidden, and -o conn is named to see it', async () => {
    const { screen, lines } = await onTerminal(['units', 'list'], 40);
    expect(screen).toContain('connection hidden to fit 40 columns; -o conn shows it');
    expect(screen).not.toContain('jcVWpMP8');
    // Hidden first, so the columns that fit beside the refs stay: the protocol outlasts the status.
    expect(
      header(lines)
        .split('│')
        .map((h) => h.trim()),
    ).toEqual(['', 'ref', 'pool', 'protocol', 'time left', '']);
  });

  it('--quiet: the same table, no hint', async () => {
    const { screen } = await onTerminal(['units', 'list', '-q'], 80);
    expect(screen).not.toContain('hidden');
    expect(screen).toContain('│ time left │');
  });

  it('a pty that reports no size fits COLUMNS', async () => {
    const t = inTerminal({ ...env, COLUMNS: '80' }, ['units', 'list']);
    const r = await t.child;
    expect(r.exitCode, t.screen()).toBe(0);
    expect(t.screen().replace(/\r?\n/g, ' ')).toContain(
      '4 columns hidden to fit 80 columns: expires (empty), provider, pool, protocol; -o json shows all',
    );
    for (const line of visibleLines(t.screen())) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('pools', () => {
  it('80 columns: rotation and state are hidden first; prices stay', async () => {
    const { screen, lines } = await onTerminal(['pools'], 80);
    expect(screen).toContain('2 columns hidden to fit 80 columns: rotation, state; -o json shows all');
    expect(header(lines)).toMatch(/pool .*provider .*country .*available .*3h .*12h .*24h .*7d .*30d/);
  });

  it('120 columns: every column, no hint', async () => {
    const { screen, lines } = await onTerminal(['pools'], 120);
    expect(screen).not.toContain('hidden');
    expect(header(lines)).toMatch(/state .*rotation /);
  });
});

describe('webhook log', () => {
  it('80 columns: the time column stays (as ls -l shows a time); next attempt, response, last error and attempts go', async () => {
    const { screen, lines } = await onTerminal(['webhook', 'log'], 80, { TZ: 'UTC' });
    expect(screen).toContain('4 columns hidden to fit 80 columns: next attempt, response, last error, attempts; -o json shows all');
    expect(
      header(lines)
        .split('│')
        .map((h) => h.trim()),
    ).toEqual(['', 'id', 'event', 'status', 'created', '']);
    expect(lines.find((l) => l.includes('dlv_01HZX3K9Q2M4N6P8R0T2V4X6Z8'))).toMatch(/│ Nov 23 (13:59| {2}2026) │$/);
  });

  it('120 columns: only next attempt and response go', async () => {
    const { screen, lines } = await onTerminal(['webhook', 'log'], 120, { TZ: 'UTC' });
    expect(screen).toContain('2 columns hidden to fit 120 columns: next attempt, response; -o json shows all');
    expect(header(lines)).toMatch(/attempts .*created .*last error/);
    expect(screen).toContain('receiver answered 500');
  });
});

describe('me uptime', () => {
  it('80 columns: the window moves to its own line, the table fits whole', async () => {
    const { screen, lines } = await onTerminal(['me', 'uptime'], 80);
    expect(lines).toContain('2026-11-22T13:41:16.863Z → 2026-11-23T13:41:16.863Z');
    expect(screen).not.toContain('hidden');
    expect(header(lines)).toMatch(/unit .*pool .*uptime .*up .*down .*excluded/);
  });

  it('120 columns: the summary on one line', async () => {
    const { lines } = await onTerminal(['me', 'uptime'], 120);
    expect(lines.some((l) => l.startsWith('Uptime ') && l.endsWith('2026-11-22T13:41:16.863Z → 2026-11-23T13:41:16.863Z'))).toBe(true);
  });
});

describe('key/value tables', () => {
  it('60 columns: a long value wraps inside its cell, every character kept', async () => {
    const { lines } = await onTerminal(['webhook', 'get'], 60);
    const at = lines.findIndex((l) => l.startsWith('│ url '));
    const value = lines
      .slice(
        at,
        lines.findIndex((l) => l.startsWith('│ enabled ')),
      )
      .map((l) => l.split('│')[2]!.trim())
      .join('');
    expect(value).toBe(HOOK_URL);
  });
});

describe('piped output is unchanged', () => {
  it('tsv and -o table off a terminal ignore COLUMNS and say nothing', async () => {
    const tsv = await proxyctl(['units', 'list'], { home, env: { ...env, COLUMNS: '40' } });
    expect(tsv.exitCode).toBe(0);
    expect(tsv.stdout).toBe(
      [
        'PRX-1\tBR-11\tsocks5\tACTIVE\t2h 59m\t198.51.100.36:10131:uzby69721u:jcVWpMP8nEcYxq1',
        'PRX-2\tBR-11\tsocks5\tACTIVE\t2h 59m\t198.51.100.36:10132:uzby69722u:jcVWpMP8nEcYxq2',
      ].join('\n'),
    );
    const narrow = await proxyctl(['webhook', 'log', '-o', 'table'], { home, env: { ...env, COLUMNS: '40' } });
    const plain = await proxyctl(['webhook', 'log', '-o', 'table'], { home, env });
    expect(narrow.exitCode).toBe(0);
    expect(narrow.stderr).toBe('');
    expect(narrow.stdout).toBe(plain.stdout);
    expect(narrow.stdout).toMatch(/│ id .*│ event .*│ status .*│ attempts .*│ response .*│ next attempt .*│ created .*│ last error .*│/);
  });
});
