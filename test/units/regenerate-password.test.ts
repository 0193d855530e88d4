// `units modify --regenerate-password` against the sandbox: a new strong password per unit, made
// on this machine (never on argv), sent in the unit's PATCH and printed once, in the output asked
// for (-o conn and --conn-format included): a customer's new list in one command. Named units,
// refs on stdin and selections; no-auth units have no password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit;
let refs: string[];
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
  refs = seedFleet(kit, [
    { poolId: 'US-11', hoursLeft: 10, description: 'customer=acme' }, // 0
    { poolId: 'GB-11', hoursLeft: 20, description: 'customer=acme first' }, // 1
    { poolId: 'US-12', hoursLeft: 30, description: 'customer=globex' }, // 2
    { poolId: 'US-11', hoursLeft: 40, protocol: 'http_noauth', description: 'customer=acme' }, // 3
    { poolId: 'DE-11', hoursLeft: 50, description: 'customer=acme' }, // 4
  ]);
});
afterAll(() => kit.close());

type Creds = { username: string; password: string } | null;
const credentialsOf = async () => new Map((await kit.state()).units.map((u) => [u.proxyRef, u.credentials as Creds]));
const STRONG = /^[A-Za-z0-9]{24}$/;

describe('units modify --regenerate-password', () => {
  it('a selection: every unit with a password gets a new one, printed once as -o conn lines', async () => {
    const before = await credentialsOf();
    // The tag as it reads in a description names the same customer as the bare name.
    const r = await kit.run(['units', 'modify', '--tagged', 'customer=acme', '--regenerate-password', '-o', 'conn']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const after = await credentialsOf();
    const acme = [refs[1]!, refs[0]!, refs[4]!].sort();
    const units = (await kit.state()).units;
    const lines = String(r.stdout).split('\n');
    // Each line is what the server now holds for its unit.
    const held = (l: string) => {
      const u = units.find((x) => l.startsWith(`${x.ip}:${x.port}:`));
      return u && `${u.ip}:${u.port}:${after.get(u.proxyRef)?.username}:${after.get(u.proxyRef)?.password}`;
    };
    expect(lines).toEqual(lines.map(held));
    const changed = units.filter((u) => before.get(u.proxyRef)?.password !== after.get(u.proxyRef)?.password).map((u) => u.proxyRef);
    expect(changed.sort()).toEqual(acme);
    expect(lines).toHaveLength(3);
    for (const ref of acme) {
      expect(after.get(ref)!.password).toMatch(STRONG);
      expect(after.get(ref)!.username).toBe(before.get(ref)!.username);
    }
    expect(new Set(acme.map((ref) => after.get(ref)!.password)).size).toBe(3);
    // The no-auth unit is left out, and said; no password on stderr.
    expect(String(r.stderr)).toContain('1 selected unit has no password (http_noauth): left out');
    // What it says is true: the passwords are not shown only here, units list -o conn shows them again.
    expect(String(r.stderr)).not.toContain('shown only here');
    expect(String(r.stderr)).toContain(
      'new passwords generated on this machine and set on the units; the old ones no longer work (units list -o conn shows the new ones again)',
    );
    for (const ref of acme) expect(String(r.stderr)).not.toContain(after.get(ref)!.password);
    const again = await kit.run(['units', 'list', '-o', 'conn']);
    for (const line of lines.filter(Boolean)) expect(String(again.stdout).split('\n')).toContain(line);
    expect(after.get(refs[3]!)).toBeNull();
  });

  it('one named unit: the unit as JSON with its new credentials; --username renames it too', async () => {
    const r = await kit.run(['units', 'modify', refs[2]!, '--regenerate-password', '--json']);
    expect(r.exitCode).toBe(0);
    const unit = JSON.parse(String(r.stdout));
    const now = (await credentialsOf()).get(refs[2]!)!;
    expect(unit).toMatchObject({ proxyRef: refs[2], poolId: 'US-12', credentials: now });
    expect(now.password).toMatch(STRONG);
    const renamed = await kit.run([
      'units',
      'modify',
      refs[2]!,
      '--regenerate-password',
      '--username',
      'globex01',
      '--conn-format',
      '{user}:{pass}',
    ]);
    expect(renamed.exitCode).toBe(0);
    const again = (await credentialsOf()).get(refs[2]!)!;
    expect(again.username).toBe('globex01');
    expect(again.password).not.toBe(now.password);
    expect(String(renamed.stdout)).toBe(`globex01:${again.password}`);
  });

  it('refs on stdin, as url lines; a named no-auth unit fails alone (exit 10), the others change', async () => {
    const r = await kit.run(['units', 'modify', '-', '--regenerate-password', '--conn-format', 'url'], {
      input: `${refs[0]}\n${refs[3]}\n${refs[4]}\n`,
      stdin: undefined,
    });
    expect(r.exitCode).toBe(10);
    const after = await credentialsOf();
    const units = (await kit.state()).units;
    const url = (i: number) => {
      const u = units.find((x) => x.proxyRef === refs[i])!;
      return `socks5://${after.get(u.proxyRef)!.username}:${after.get(u.proxyRef)!.password}@${u.ip}:${u.port}`;
    };
    expect(String(r.stdout).split('\n').sort()).toEqual([url(0), url(4)].sort());
    expect(String(r.stderr)).toContain(`${refs[3]} has no password to regenerate`);
    const one = await kit.run(['units', 'modify', refs[3]!, '--regenerate-password']);
    expect(one.exitCode).toBe(2);
  });

  it('a password typed beside it, a whitelist, or connection output without it: exit 2 before any request', async () => {
    const before = kit.sb.requestLog().length;
    for (const [args, message] of [
      [[refs[0]!, '--regenerate-password', '--password', 'x'], '--regenerate-password makes the password: drop --password'],
      [[refs[0]!, '--regenerate-password', '--allow-ip', '203.0.113.9'], '--allow-ip is for http_noauth units'],
      [[refs[0]!, '--description', 'x', '--conn-format', 'url'], '--conn-format shapes the connection lines of --regenerate-password'],
      [[refs[0]!, '--description', 'x', '-o', 'conn'], '-o conn is not available for this command'],
      [[refs[0]!, '--regenerate-password', '--username', 'a:b'], '--username must be non-empty and contain no spaces'],
      [[refs[0]!, '--regenerate-password', '--conn-format', '{nope}'], 'unknown placeholder {nope}'],
    ] as const) {
      const r = await kit.run(['units', 'modify', ...args]);
      expect({ args, code: r.exitCode }).toEqual({ args, code: 2 });
      expect(String(r.stderr)).toContain(message);
    }
    expect(kit.sb.requestLog().length).toBe(before);
  });
});
