// Tables on a real 80-column terminal (a pty, drawn by a terminal emulator) keep the columns that
// carry the answer: spend's customer, --reconcile's unexplained amount (also at 100), where a
// profile's key is kept, the UTC expiry `units list --utc` asked for; long timestamps shorten to
// the minute before any of those goes; and `status` names at least one customer before "+N more".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, inTerminal, loginWithStdin, renderScreen, startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
let env: Record<string, string>;
beforeAll(async () => {
  kit = await startKit();
  env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey } as Record<string, string>;
  // Debits in the ledger with a customer, and a balance change it does not explain between two readings.
  const a = await kit.run([
    'units',
    'create',
    '--pool',
    'US-11',
    '--period',
    '3h',
    '--count',
    '2',
    '--customer',
    'acme-corporation',
    '--yes',
  ]);
  expect(a.exitCode, String(a.stderr)).toBe(0);
  await kit.control('/balance', { balanceUsd: 900.5 });
  const b = await kit.run(['units', 'create', '--pool', 'DE-11', '--period', '24h', '--customer', 'bob', '--yes']);
  expect(b.exitCode, String(b.stderr)).toBe(0);
});
afterAll(() => kit.close());

/** What an 80-column (or `columns`) terminal shows for `args`, row by row, and the exit code. */
async function screenOf(args: string[], columns = 80): Promise<{ code: number; rows: string[]; text: string }> {
  const t = inTerminal(env, args, { columns });
  const r = await t.child;
  const rows = (await renderScreen(t.screen(), columns)).map((x) => x.text);
  return { code: r.exitCode ?? -1, rows, text: rows.join('\n') };
}

/** The cells of a table's header row, trimmed. */
const header = (rows: string[]) =>
  rows
    .find((r) => r.startsWith('│'))!
    .split('│')
    .slice(1, -1)
    .map((c) => c.trim());

describe('at 80 columns the answer stays', () => {
  it('spend keeps Customer and Price; the time shortens to the minute, Source and Period go', async () => {
    const s = await screenOf(['spend']);
    expect(s.code, s.text).toBe(0);
    expect(header(s.rows)).toEqual(['At', 'Operation', 'Ref', 'Pool', 'Price', 'Customer']);
    expect(s.text).toMatch(/│ \d{4}-\d{2}-\d{2} \d{2}:\d{2}Z │ create +│ PRX-1 +│ US-11 │ [\d.]+ USD │ acme-corporation │/);
    expect(s.text).toContain('2 columns hidden to fit 80 columns: Source, Period; -o json shows all');
    for (const row of s.rows) expect(row.length).toBeLessThanOrEqual(80);
  });

  it('spend --reconcile keeps To and Unexplained at 80 and 100 columns, the timestamps shortened', async () => {
    for (const columns of [80, 100]) {
      const s = await screenOf(['spend', '--reconcile'], columns);
      expect(s.code, s.text).toBe(0);
      const h = header(s.rows);
      expect(h, `${columns} columns`).toEqual(expect.arrayContaining(['From', 'To', 'Unexplained']));
      expect(s.text).toMatch(/│ \d{4}-\d{2}-\d{2} \d{2}:\d{2}Z │ \d{4}-\d{2}-\d{2} \d{2}:\d{2}Z │/);
      expect(s.text).toMatch(/│ -?[\d.]+ USD +│\n/);
      expect(s.text).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    }
  });

  it('profiles list keeps where the key is kept; "in use" goes first (the * marks it)', async () => {
    for (const name of ['default', 'staging-reseller-account']) {
      const r = await loginWithStdin(kit.home, kit.sb.baseUrl, name, kit.sb.apiKey);
      expect(r.exitCode, String(r.stderr)).toBe(0);
    }
    const s = await screenOf(['profiles', 'list']);
    expect(s.code, s.text).toBe(0);
    expect(header(s.rows)).toEqual(['', 'name', 'base url', 'api key', 'key in']);
    expect(s.text).toMatch(/│ staging-reseller-account │ http:\/\/127\.0\.0\.1:\d+ +│ sk_s…0000 │ (file|keyring) +│/);
  });

  it('units list --utc keeps the UTC expiry (the time left goes in its place); without --utc the time left stays', async () => {
    const utc = await screenOf(['units', 'list', '--utc']);
    expect(utc.code, utc.text).toBe(0);
    expect(header(utc.rows)).toEqual(['ref', 'expires (UTC)', 'connection']);
    const local = await screenOf(['units', 'list']);
    expect(header(local.rows)).toEqual(['ref', 'status', 'time left', 'connection']);
  });
});

describe('key/value tables at 40 columns', () => {
  it('a timestamp is shown to the minute, never split inside; at 30 its date sits above its time (to the minute); the hint wraps between words', async () => {
    const ref = (await kit.state()).units[0]!.proxyRef;
    const unit = await kit.api<{ expiresAt: string }>(`/units/${ref}`);
    const minute = `${unit.expiresAt.slice(0, 16).replace('T', ' ')}Z`;
    const at40 = await screenOf(['units', 'get', ref], 40);
    expect(at40.code, at40.text).toBe(0);
    expect(at40.rows).toContainEqual(expect.stringMatching(new RegExp(`^│ expires at +│ ${minute} +│$`)));
    for (const row of at40.rows) expect(row.length).toBeLessThanOrEqual(40);
    // The hint's lines break only where it has a space: joined back they are the hint.
    const hint = at40.rows.slice(
      0,
      at40.rows.findIndex((r) => r.startsWith('┌')),
    );
    expect(hint.length).toBeGreaterThan(1);
    expect(hint.join(' ')).toBe('connection hidden to fit 40 columns; -o conn shows it');
    const at30 = await screenOf(['units', 'get', ref], 30);
    const i = at30.rows.findIndex((r) => r.startsWith('│ expires at'));
    expect([at30.rows[i], at30.rows[i + 1]]).toEqual([
      expect.stringMatching(new RegExp(`^│ expires at +│ ${unit.expiresAt.slice(0, 10)} +│$`)),
      expect.stringMatching(new RegExp(`^│ +│ ${unit.expiresAt.slice(11, 16)}Z +│$`)),
    ]);
  });
});

describe('status names what it counts', () => {
  it('the Customers line shows a customer before "+N more" at 80 and 40 columns', async () => {
    const pool = kit.sb.world.pools.find((p) => p.available)!.poolId;
    for (let i = 1; i <= 11; i++) {
      const r = await call(kit.sb, 'POST', '/units', {
        body: { poolId: pool, period: '3h', description: `customer=reseller-customer-number-${i}` },
      });
      expect(r.status).toBe(201);
    }
    for (const columns of [80, 40]) {
      const s = await screenOf(['status'], columns);
      expect(s.code, s.text).toBe(0);
      const start = s.rows.findIndex((r) => r.startsWith('Customers'));
      const end = s.rows.findIndex((r, i) => i > start && !r.startsWith(' '));
      const line = s.rows.slice(start, end).join(' ').replace(/\s+/g, ' ');
      expect(line, `${columns} columns`).toMatch(/days: [\w-]+ \d+ units?, [\d.]+ USD(, [^,]+ \d+ units?, [\d.]+ USD)*, \+\d+ more$/);
    }
  });
});
