// Tables at every width from 40 columns, with colour on, as a real terminal shows them (a pty, the
// screen rendered by a terminal emulator): no row is a fragment of a colour code, no label is
// split, no row is wider than the terminal, and a connection string or secret is never wrapped or
// cut: it is whole on its row, or left out with a hint on stderr naming what shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, type Kit, renderScreen, seedFleet, startKit } from '../helpers/index.js';

const WIDTHS = [40, 44, 48, 52, 56, 60, 64, 68, 70, 72, 76, 80, 90, 100, 120];
const CREDS = { username: 'uzby69721u0k', password: 'jcVWpMP8nEcYxq1z' };

let kit: Kit;
let ref: string;
let conn: string;
beforeAll(async () => {
  kit = await startKit({ balance: 500 });
  // Under a day left: the time-left cell is coloured (yellow), as is the status.
  [ref] = seedFleet(kit, [
    { hoursLeft: 5, credentials: CREDS, description: 'acme corp checkout scraper, rotating every ten minutes across the fleet' },
  ]) as [string];
  const unit = await kit.api<{ ip: string; port: number }>(`/units/${ref}`);
  conn = `${unit.ip}:${unit.port}:${CREDS.username}:${CREDS.password}`;
});
afterAll(() => kit.close());

/** The command on a pty `columns` wide, colour on (or off), and the screen a terminal shows. */
async function screenOf(args: string[], columns: number, colour = true) {
  const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, NO_COLOR: colour ? '' : '1' };
  const t = inTerminal(env, args, { columns });
  const r = await t.child;
  expect(r.exitCode, t.screen()).toBe(0);
  return renderScreen(t.screen(), columns);
}

/** Checks that hold at every width; returns the table's rows (the lines drawn with │). */
function expectFits(rows: { text: string; wrapped: boolean }[], columns: number, secret: string, hint: string) {
  const screen = rows.map((r) => r.text).join('\n');
  rows.forEach((row, i) => {
    // A line of the table wider than the terminal goes on in the next row (notices are not ours to fit).
    const drawn = /^[┌│└]/.test(rows[i - 1]?.text ?? '');
    expect(row.wrapped && drawn, `a row wider than ${columns} columns:\n${screen}`).toBe(false);
    // What is left of a colour code the terminal could not read: "[22m", "22m" alone in a cell.
    expect(row.text, screen).not.toMatch(/\[\d+(;\d+)*m|│ *\d*;?\d+m *│/);
  });
  const table = rows.filter((r) => r.text.startsWith('│'));
  const whole = table.filter((r) => r.text.includes(secret));
  if (whole.length === 0) {
    // Left out: nothing of it on screen, and the hint (wrapped at the terminal's width) says why.
    expect(screen).not.toContain(secret.slice(-8));
    expect(rows.map((r) => r.text.trim()).join(' ')).toContain(hint.replace('{width}', String(columns)));
  } else expect(whole).toHaveLength(1);
  return table;
}

describe('units get (a key/value table)', () => {
  const LABELS = [
    'ref',
    'pool',
    'protocol',
    'status',
    'time left',
    'connection',
    'provider',
    'country',
    'expires at',
    'allowed ips',
    'description',
  ];

  it.each(WIDTHS)('%i columns', async (columns) => {
    const rows = await screenOf(['units', 'get', ref], columns);
    const table = expectFits(rows, columns, conn, 'connection hidden to fit {width} columns; -o conn shows it');
    // Every label whole on its own row, in order (a wrapped value's rows have no label).
    const labels = table.map((r) => r.text.split('│')[1]?.trim()).filter((l): l is string => Boolean(l));
    const shown = table.some((r) => r.text.includes(conn));
    expect(labels).toEqual(shown ? LABELS : LABELS.filter((l) => l !== 'connection'));
    // Colour changes nothing a reader sees.
    const plain = await screenOf(['units', 'get', ref], columns, false);
    expect(rows.map((r) => r.text)).toEqual(plain.map((r) => r.text));
    // A long description wraps inside its cell, every word kept.
    const at = table.findIndex((r) => r.text.startsWith('│ description '));
    const description = table
      .slice(at)
      .map((r) => r.text.split('│')[2]!.trim())
      .join(' ');
    expect(description.replace(/\s+/g, ' ')).toBe('acme corp checkout scraper, rotating every ten minutes across the fleet');
  });

  it('80 columns and wider: the connection string is on its row, whole', async () => {
    for (const columns of [80, 120]) {
      const rows = await screenOf(['units', 'get', ref], columns);
      expect(rows.some((r) => new RegExp(`^│ connection +│ ${conn} +│$`).test(r.text))).toBe(true);
    }
  });
});

describe('units list (a wide table)', () => {
  it.each(WIDTHS)('%i columns', async (columns) => {
    const rows = await screenOf(['units', 'list'], columns);
    expectFits(rows, columns, conn, 'connection hidden to fit {width} columns; -o conn shows it');
    // The unit's row is there, and no cell is cut in the middle of the password.
    expect(rows.some((r) => r.text.includes(ref))).toBe(true);
    expect(rows.some((r) => r.text.includes(CREDS.password.slice(0, 4)) && !r.text.includes(conn))).toBe(false);
  });
});

describe('webhook set (a secret shown once)', () => {
  it.each([40, 60, 80])('%i columns', async (columns) => {
    const rows = await screenOf(['webhook', 'set', 'https://hooks.example.com/proxyctl'], columns);
    const state = (kit.sb.state() as { webhook: { secret: string } }).webhook;
    expectFits(rows, columns, state.secret, 'secret hidden to fit {width} columns; proxyctl webhook get --json shows it');
  });
});

describe('a command that bought or changed the unit', () => {
  it('40 columns: the hint reads the unit back, never "-o conn" (running the purchase again would buy again)', async () => {
    const rows = await screenOf(['units', 'create', '--pool', 'US-11', '--period', '3h'], 40);
    const text = rows.map((r) => r.text.trim()).join(' ');
    expect(text).toContain('connection hidden to fit 40 columns; proxyctl units get <ref> -o conn shows it');
    const units = (await kit.state()).units;
    expect(units).toHaveLength(2);
    expect(text).not.toContain(units[1]!.credentials!.password.slice(-8));
  });
});
