// A swap moves the unit to another address: it says so (old → new ip:port, on stderr) and prints
// the new connection line to hand on, as the default output's connection row, alone with -o conn,
// or shaped by --conn-format; -q leaves only the line.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTerminal, type Kit, startKit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
});
afterAll(() => kit.close());

async function unitOf(ref: string) {
  return (await kit.state()).units.find((u) => u.proxyRef === ref)!;
}

async function buy(protocol = 'socks5', extra: string[] = []): Promise<string> {
  const r = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '24h', '--protocol', protocol, ...extra, '--json', '-q']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout)).proxyRef as string;
}

const addr = (u: { ip: string; port: number }) => `${u.ip}:${u.port}`;
const line = (u: Awaited<ReturnType<typeof unitOf>>) => `${addr(u)}:${u.credentials!.username}:${u.credentials!.password}`;

it('piped: "moved to POOL: address changed OLD → NEW" on stderr, the new connection line in its row', async () => {
  const ref = await buy();
  const old = await unitOf(ref);
  const r = await kit.run(['units', 'swap', ref, '--pool', 'GB-11']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const now = await unitOf(ref);
  expect(now.poolId).toBe('GB-11');
  expect(addr(now)).not.toBe(addr(old));
  expect(String(r.stderr)).toBe(`${ref} moved to GB-11: address changed ${addr(old)} → ${addr(now)}`);
  expect(String(r.stdout).split('\n')).toContain(`connection\t${line(now)}`);
});

it('-o conn prints only the new line; --conn-format shapes it; -q says nothing else', async () => {
  const ref = await buy();
  let old = await unitOf(ref);
  const conn = await kit.run(['units', 'swap', ref, '--pool', 'DE-11', '-o', 'conn']);
  expect(conn.exitCode, String(conn.stderr)).toBe(0);
  let now = await unitOf(ref);
  expect(conn.stdout).toBe(line(now));
  expect(String(conn.stderr)).toContain(`${ref} moved to DE-11: address changed ${addr(old)} → ${addr(now)}`);

  old = now;
  const shaped = await kit.run(['units', 'swap', ref, '--pool', 'FR-11', '--conn-format', '{user}:{pass}@{ip}:{port}']);
  expect(shaped.exitCode, String(shaped.stderr)).toBe(0);
  now = await unitOf(ref);
  expect(shaped.stdout).toBe(`${now.credentials!.username}:${now.credentials!.password}@${addr(now)}`);
  expect(String(shaped.stderr)).toContain(`address changed ${addr(old)} → ${addr(now)}`);

  const quiet = await kit.run(['units', 'swap', ref, '--pool', 'NL-11', '-o', 'conn', '-q']);
  expect(quiet.exitCode).toBe(0);
  expect(quiet.stdout).toBe(line(await unitOf(ref)));
  expect(quiet.stderr).toBe('');
});

it('a no-auth unit: the new line is ip:port', async () => {
  const ref = await buy('http_noauth', ['--allow-ip', '203.0.113.7']);
  const old = await unitOf(ref);
  const r = await kit.run(['units', 'swap', ref, '--pool', 'GB-12', '-o', 'conn']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const now = await unitOf(ref);
  expect(r.stdout).toBe(addr(now));
  expect(String(r.stderr)).toContain(`${ref} moved to GB-12: address changed ${addr(old)} → ${addr(now)}`);
});

it('on an 80-column terminal: the change said above the table, the connection row whole', async () => {
  const ref = await buy();
  const old = await unitOf(ref);
  const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
  const t = inTerminal(env, ['units', 'swap', ref, '--pool', 'CA-11'], { columns: 80 });
  expect((await t.child).exitCode, t.screen()).toBe(0);
  const now = await unitOf(ref);
  const screen = t.screen();
  expect(screen).toContain(`${ref} moved to CA-11: address changed ${addr(old)} → ${addr(now)}`);
  expect(screen).toMatch(new RegExp(`│ connection +│ ${line(now)} +│`));
});
