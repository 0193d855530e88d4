// `units list` on a terminal: expiry as relative time ("in 2h 59m"), highlighted under 24 h;
// piped, the rows keep the plain value they always had, with no colour.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTerminal, type Kit, startKit } from '../helpers/index.js';

/** The yellow that marks a unit expiring within a day, and the end of a colour (chalk, level 1). */
const YELLOW = '\u001b[33m';
const END = '\u001b[39m';

let kit: Kit;
const refs: string[] = [];
beforeAll(async () => {
  kit = await startKit({ balance: 500 });
  for (const period of ['3h', '7d']) {
    const r = await kit.run(['units', 'create', '--pool', 'US-11', '--period', period, '--json', '-q']);
    refs.push(JSON.parse(String(r.stdout)).proxyRef as string);
  }
});
afterAll(() => kit.close());

it('on an 80-column terminal: "in 2h 59m" in yellow under a day, plain beyond, every line fits', async () => {
  // NO_COLOR empty: colour on, as on a user's terminal.
  const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, NO_COLOR: '' };
  const t = inTerminal(env, ['units', 'list'], { columns: 80 });
  const r = await t.child;
  expect(r.exitCode, t.screen()).toBe(0);
  const screen = t.screen();
  expect(
    [`${YELLOW}in 2h 59m${END}`, `${YELLOW}in 3h${END}`].some((s) => screen.includes(s)),
    screen,
  ).toBe(true);
  const rows = stripVTControlCharacters(screen).split(/\r?\n/);
  for (const line of rows) expect(line.length, line).toBeLessThanOrEqual(80);
  expect(rows.find((l) => l.includes(refs[0]!))).toMatch(/│ in (2h 59m|3h) +│/);
  expect(rows.find((l) => l.includes(refs[1]!))).toMatch(/│ in (6d 23h|7d) +│/);
  expect(screen).not.toContain(`${YELLOW}in 6d`);
  expect(screen).not.toContain(`${YELLOW}in 7d`);
});

it('piped: the same rows as before (no "in", no colour)', async () => {
  const r = await kit.run(['units', 'list']);
  expect(r.exitCode).toBe(0);
  const rows = String(r.stdout).trimEnd().split('\n');
  expect(rows.find((l) => l.startsWith(`${refs[0]}\t`))!.split('\t')[4]).toMatch(/^(2h 59m|3h)$/);
  expect(rows.find((l) => l.startsWith(`${refs[1]}\t`))!.split('\t')[4]).toMatch(/^(6d 23h|7d)$/);
  expect(String(r.stdout)).not.toContain('\u001b[');
});
