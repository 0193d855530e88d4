// Which columns a real 80-column terminal (script(1), the built binary, the sandbox) keeps when a
// table must lose some: what tells units apart goes last. The provider (its pool names it) goes
// before the protocol, and a column no row fills (a check's error column when nothing failed)
// goes before anything else.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, type Kit, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
});
afterAll(() => kit.close());

const env = () => ({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, TZ: 'UTC' });

/** The command on an 80-column pty: its lines as shown (no line wider than 80), the header's cells, the whole screen as one line. */
async function at80(args: string[]) {
  const t = inTerminal(env(), args, { columns: 80 });
  const r = await t.child;
  const lines = stripVTControlCharacters(t.screen()).split(/\r?\n/);
  for (const line of lines) expect(line.length, `${line}\n${t.screen()}`).toBeLessThanOrEqual(80);
  const head = lines.find((l) => /^│ (ref|unit) /.test(l)) ?? '';
  return {
    exitCode: r.exitCode,
    headers: head
      .split('│')
      .map((h) => h.trim())
      .filter(Boolean),
    // The hint wraps at 80 columns: read it as one line.
    said: lines.join(' ').replace(/\s+/g, ' '),
    screen: t.screen(),
  };
}

describe('at 80 columns', () => {
  it('units list: the provider goes before the protocol, which stays beside pool, status and time left', async () => {
    // No-auth units: a short connection string leaves room for all but two columns.
    const refs = seedFleet(kit, [
      { hoursLeft: 30, protocol: 'http_noauth' },
      { hoursLeft: 50, protocol: 'http_noauth' },
    ]);
    const r = await at80(['units', 'list']);
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.said).toContain('2 columns hidden to fit 80 columns: provider, expires; -o json shows all');
    expect(r.headers).toEqual(['ref', 'pool', 'protocol', 'status', 'time left', 'connection']);
    for (const ref of refs) expect(r.said).toMatch(new RegExp(`│ ${ref} +│ [A-Z]{2}-\\d+ +│ http_noauth │ ACTIVE +│`));
    // Wider, nothing is hidden: the provider is there to be hidden.
    const wide = inTerminal(env(), ['units', 'list'], { columns: 140 });
    expect((await wide.child).exitCode).toBe(0);
    expect(stripVTControlCharacters(wide.screen())).toMatch(
      /│ ref +│ pool +│ provider +│ protocol +│ status +│ time left +│ expires +│ connection/,
    );
    expect(wide.screen()).not.toContain('hidden');
  });

  it('units check: the error column nothing failed in goes first, the status stays', async () => {
    const bought = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '3h', '--json', '-q']);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    const ref = JSON.parse(String(bought.stdout)).proxyRef as string;
    const r = await at80(['units', 'check', ref]);
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.said).toContain('1 column hidden to fit 80 columns: error (empty); -o json shows all');
    expect(r.headers).toEqual(['unit', 'ip', 'port', 'protocol', 'ok', 'status', 'ms', 'exit ip']);
    expect(r.said).toMatch(new RegExp(`│ ${ref} +│ [\\d.]+ +│ \\d+ +│ socks5 +│ ok +│ 200 +│`));
  });
});
