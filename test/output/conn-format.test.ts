// `--conn-format`: the -o conn lines a customer's software wants, on units list, get, create, swap
// and change-protocol: the presets colon (ip:port:user:pass), at (user:pass@ip:port) and url
// (socks5://…, http://…, http://ip:port for no-auth units), and templates of placeholders. It
// implies -o conn; an unknown preset or placeholder is exit 2 before any request.
import { afterEach, describe, expect, it } from 'vitest';
import { type Kit, proxyctl, seedFleet, startKit, tempHome } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

interface Seen {
  proxyRef: string;
  poolId: string;
  country: string;
  protocol: string;
  ip: string;
  port: number;
  expiresAt: string;
  credentials: { username: string; password: string } | null;
}

/** A socks5, an http and a no-auth unit in one pool, as the server reports them. */
async function threeUnits() {
  kit = await startKit({ balance: 100 });
  seedFleet(kit, [
    { hoursLeft: 10, protocol: 'socks5', description: 'acme' },
    { hoursLeft: 20, protocol: 'http', description: 'globex' },
    { hoursLeft: 30, protocol: 'http_noauth', description: 'ACME too' },
  ]);
  const units = (await kit.state()).units as unknown as Seen[];
  return { kit, units };
}

const lines = (stdout: unknown) => String(stdout).split('\n');

describe('--conn-format on units list', () => {
  it('colon (the default), at and url presets, one line per unit, no-auth units without credentials', async () => {
    const { kit, units } = await threeUnits();
    const [s, h, n] = units;
    const colon = [`${s!.ip}:${s!.port}:user1:pass1`, `${h!.ip}:${h!.port}:user2:pass2`, `${n!.ip}:${n!.port}`];
    for (const args of [
      ['-o', 'conn'],
      ['--conn-format', 'colon'],
      ['-o', 'conn', '--conn-format', 'colon'],
    ]) {
      const r = await kit.run(['units', 'list', ...args]);
      expect(r.exitCode).toBe(0);
      expect(lines(r.stdout)).toEqual(colon);
    }
    const at = await kit.run(['units', 'list', '--conn-format', 'at']);
    expect(lines(at.stdout)).toEqual([`user1:pass1@${s!.ip}:${s!.port}`, `user2:pass2@${h!.ip}:${h!.port}`, `${n!.ip}:${n!.port}`]);
    const url = await kit.run(['units', 'list', '--conn-format', 'URL']);
    expect(lines(url.stdout)).toEqual([
      `socks5://user1:pass1@${s!.ip}:${s!.port}`,
      `http://user2:pass2@${h!.ip}:${h!.port}`,
      `http://${n!.ip}:${n!.port}`,
    ]);
  });

  it('a template fills every placeholder; {{ and }} are literal braces', async () => {
    const { kit, units } = await threeUnits();
    const r = await kit.run([
      'units',
      'list',
      '--conn-format',
      '{{{ref}}} {pool} {country} {protocol} {expiresAt} {ip}:{port} {user}:{pass}',
    ]);
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout)).toEqual(
      units.map(
        (u) =>
          `{${u.proxyRef}} ${u.poolId} ${u.country} ${u.protocol} ${u.expiresAt} ${u.ip}:${u.port} ${u.credentials?.username ?? ''}:${u.credentials?.password ?? ''}`,
      ),
    );
    const at = await kit.run(['units', 'list', '--conn-format', '{user}:{pass}@{ip}:{port}', '--limit', '1']);
    expect(String(at.stdout)).toBe(`user1:pass1@${units[0]!.ip}:${units[0]!.port}`);
  });

  it('server text is escaped, never obeyed; url percent-encodes the user info', async () => {
    kit = await startKit({ balance: 100 });
    seedFleet(kit, [{ hoursLeft: 5, credentials: { username: 'u\x1b]0;x\x07', password: 'p@ss:w/rd' } }]);
    const [u] = (await kit.state()).units;
    const t = await kit.run(['units', 'list', '--conn-format', '{user}|{pass}']);
    expect(String(t.stdout)).toBe('u\\x1b]0;x\\x07|p@ss:w/rd');
    const url = await kit.run(['units', 'list', '--conn-format', 'url']);
    expect(String(url.stdout)).toBe(`socks5://u%5Cx1b%5D0%3Bx%5Cx07:p%40ss%3Aw%2Frd@${u!.ip}:${u!.port}`);
  });
});

describe('--conn-format on get, create, swap and change-protocol', () => {
  it('get prints the unit’s one line', async () => {
    const { kit, units } = await threeUnits();
    const [s, , n] = units;
    expect(String((await kit.run(['units', 'get', s!.proxyRef, '--conn-format', 'url'])).stdout)).toBe(
      `socks5://user1:pass1@${s!.ip}:${s!.port}`,
    );
    expect(String((await kit.run(['units', 'get', n!.proxyRef, '--conn-format', 'url'])).stdout)).toBe(`http://${n!.ip}:${n!.port}`);
    expect(String((await kit.run(['units', 'get', n!.proxyRef, '--conn-format', '{ref} {protocol}'])).stdout)).toBe(
      `${n!.proxyRef} http_noauth`,
    );
  });

  it('create prints each new unit in the format asked for', async () => {
    kit = await startKit({ balance: 100 });
    const pool = kit.sb.world.pools.find((p) => p.available)!.poolId;
    const buy = `units create --pool ${pool} --period 3h --count 2`.split(' ');
    const r = await kit.run([...buy, '--conn-format', '{ref} {user}:{pass}@{ip}:{port}']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const made = (await kit.state()).units as unknown as Seen[];
    expect(lines(r.stdout).sort()).toEqual(
      made.map((u) => `${u.proxyRef} ${u.credentials!.username}:${u.credentials!.password}@${u.ip}:${u.port}`).sort(),
    );
  });

  it('swap prints the moved unit, and change-protocol the switched one', async () => {
    const { kit, units } = await threeUnits();
    const [s] = units;
    const other = kit.sb.world.pools.find((p) => p.available && p.poolId !== s!.poolId)!.poolId;
    const r = await kit.run(['units', 'swap', s!.proxyRef, '--pool', other, '--conn-format', '{pool} {user}:{pass}@{ip}:{port}']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const moved = ((await kit.state()).units as unknown as Seen[]).find((u) => u.proxyRef === s!.proxyRef)!;
    expect(String(r.stdout)).toBe(`${other} user1:pass1@${moved.ip}:${moved.port}`);
    const c = await kit.run(['units', 'change-protocol', s!.proxyRef, '--protocol', 'http', '--conn-format', 'url']);
    expect(c.exitCode, String(c.stderr)).toBe(0);
    expect(String(c.stdout)).toBe(`http://user1:pass1@${moved.ip}:${moved.port}`);
  });
});

describe('--conn-format refused before any request', () => {
  it('an unknown placeholder or preset, an unmatched brace, or another -o is exit 2', async () => {
    // A base URL nothing listens on: any request would fail to connect (exit 9), not exit 2.
    const home = tempHome();
    const env = { PROXYCTL_BASE_URL: 'http://127.0.0.1:9', PROXYCTL_API_KEY: 'sk_test_0000000000000000' };
    try {
      const cases: [string[], string][] = [
        [['units', 'list', '--conn-format', '{user}:{password}'], 'unknown placeholder {password}'],
        [['units', 'get', 'PRX-1', '--conn-format', '{host}'], 'unknown placeholder {host}'],
        [['units', 'swap', 'PRX-1', '--pool', 'US-1', '--conn-format', '{ip'], 'unmatched "{"'],
        [['units', 'create', '--pool', 'US-1', '--period', '3h', '--conn-format', 'proxifier'], '"proxifier" is not a preset'],
        [['units', 'change-protocol', 'PRX-1', '--protocol', 'http', '--conn-format', 'ip}'], 'unmatched "}"'],
        [['units', 'list', '-o', 'json', '--conn-format', 'at'], 'cannot be used with -o json'],
        [['units', 'create', '--pool', 'US-1', '--period', '3h', '--dry-run', '--conn-format', 'at'], '-o conn is not available'],
      ];
      for (const [args, message] of cases) {
        const r = await proxyctl(args, { home, env });
        expect({ args, code: r.exitCode, said: String(r.stderr).includes(message) }).toEqual({ args, code: 2, said: true });
      }
    } finally {
      home.cleanup();
    }
  });
});
