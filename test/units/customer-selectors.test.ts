// `--customer NAME` selects by the exact `customer=NAME` tag wherever units are selected: `units
// extend --expiring-within` (renewals), `units release`, `units check` and the MCP's quote_extend.
// `customer=acme-corp` and `customer=acmeX` are other customers; `--description-contains` stays a
// substring (and its help says so). Checked against the sandbox's own units and balance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents, type Kit, seedFleet, startKit } from '../helpers/index.js';
import { ok, startMcp } from '../mcp/mcp-client.js';

let kit: Kit;
/** acme's units (any case, other text beside the tag, another pool), then the look-alikes. */
let acme: string[];
let lookAlikes: string[];
beforeAll(async () => {
  kit = await startKit({ balance: 100, rateLimit: 10_000 });
  acme = seedFleet(kit, [
    { poolId: 'US-11', hoursLeft: 5, description: 'customer=acme' },
    { poolId: 'US-11', hoursLeft: 6, description: 'vip line customer=ACME' },
    { poolId: 'GB-11', hoursLeft: 7, description: 'customer=acme, batch 7' },
  ]);
  lookAlikes = seedFleet(kit, [
    { poolId: 'US-11', hoursLeft: 5, description: 'customer=acme-corp' },
    { poolId: 'US-11', hoursLeft: 5, description: 'customer=acmeX' },
    { poolId: 'GB-11', hoursLeft: 5, description: 'acme' },
  ]);
});
afterAll(() => kit.close());

const run = async (...args: string[]) => {
  const r = await kit.run(args);
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
};
const sorted = (refs: string[]) => [...refs].sort();
const expiries = async () => Object.fromEntries((await kit.state()).units.map((u) => [u.proxyRef, u.expiresAt]));
const statuses = async () => Object.fromEntries((await kit.state()).units.map((u) => [u.proxyRef, u.status]));

describe('units extend --expiring-within --customer', () => {
  it('quotes and renews exactly the customer’s units, `customer=acme` naming the same customer', async () => {
    for (const name of ['acme', 'customer=acme', 'ACME']) {
      const dry = await run('units', 'extend', '--expiring-within', '24', '--period', '3h', '--customer', name, '--dry-run', '--json');
      expect(dry.code, dry.err).toBe(0);
      expect(sorted(JSON.parse(dry.out).refs)).toEqual(sorted(acme));
    }
    const before = await kit.state();
    const was = await expiries();
    const r = await run('units', 'extend', '--expiring-within', '24', '--period', '3h', '--customer', 'acme', '--yes', '--json');
    expect(r.code, r.err).toBe(0);
    expect(sorted((JSON.parse(r.out) as { proxyRef: string }[]).map((u) => u.proxyRef))).toEqual(sorted(acme));
    expect(r.err).toContain('tagged customer=acme');
    const now = await expiries();
    for (const ref of acme) expect(Date.parse(now[ref]!) - Date.parse(was[ref]!)).toBe(3 * 3_600_000);
    for (const ref of lookAlikes) expect(now[ref]).toBe(was[ref]);
    const price = (await kit.api<{ prices: Record<string, number> }>('/prices')).prices['3h']!;
    expect(cents(before.balanceUsd - (await kit.state()).balanceUsd)).toBe(acme.length * cents(price));
  });

  it('--description-contains stays a substring, and its help says it selects no customer', async () => {
    const dry = await run(
      'units',
      'extend',
      '--expiring-within',
      '24',
      '--period',
      '3h',
      '--description-contains',
      'customer=acme',
      '--dry-run',
      '--json',
    );
    expect(sorted(JSON.parse(dry.out).refs)).toEqual(sorted([...acme, ...lookAlikes.slice(0, 2)]));
    for (const verb of ['extend', 'list']) {
      const help = (await run('units', verb, '--help')).out.replace(/\s+/g, ' ');
      expect(help).toContain('a substring, so acme also matches customer=acme-corp: select a customer with --customer');
      expect(help).toContain('--customer <name>');
    }
  });

  it('with unit references, or an unfit name: exit 2 before any request', async () => {
    const before = kit.sb.requestLog().length;
    const both = await run('units', 'extend', acme[0]!, '--period', '3h', '--customer', 'acme', '--yes');
    expect(both.code).toBe(2);
    expect(both.err).toContain('--customer selects units with --expiring-within');
    const bad = await run('units', 'extend', '--expiring-within', '24', '--period', '3h', '--customer', 'acme corp', '--yes');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--customer must be 1 to 64 letters');
    expect(kit.sb.requestLog().length).toBe(before);
  });
});

describe('MCP quote_extend takes customer', () => {
  it('the renewal quote covers exactly the customer’s units, and charges nothing', async () => {
    const mcp = await startMcp(kit, ['--allow-spend']);
    try {
      const balance = (await kit.state()).balanceUsd;
      const quote = ok(await mcp.call('quote_extend', { expiringWithinHours: 24, customer: 'acme', period: '3h' }));
      expect(sorted(quote.refs as string[])).toEqual(sorted(acme));
      const corp = ok(await mcp.call('quote_extend', { expiringWithinHours: 24, customer: 'customer=acme-corp', period: '3h' }));
      expect(corp.refs).toEqual([lookAlikes[0]]);
      expect((await kit.state()).balanceUsd).toBe(balance);
    } finally {
      await mcp.close();
    }
  });
});

describe('units check --customer', () => {
  it('checks exactly the customer’s units', async () => {
    const r = await run('units', 'check', '--customer', 'acme', '--timeout', '2', '--json');
    expect([0, 10]).toContain(r.code);
    expect(sorted((JSON.parse(r.out) as { ref: string }[]).map((c) => c.ref))).toEqual(sorted(acme));
  });
});

describe('units release --customer', () => {
  it('without --yes and no terminal: exit 2 before any request; with refs too: exit 2', async () => {
    const before = kit.sb.requestLog().length;
    const r = await run('units', 'release', '--customer', 'acme-corp');
    expect(r.code).toBe(2);
    expect(r.err).toContain('refusing to release every active unit tagged customer=acme-corp without confirmation');
    expect((await run('units', 'release', lookAlikes[0]!, '--customer', 'acme-corp', '--yes')).code).toBe(2);
    expect(kit.sb.requestLog().length).toBe(before);
  });

  it('releases exactly the customer’s units; then none is left to release (an empty list, exit 0)', async () => {
    const r = await run('units', 'release', '--customer', 'acme-corp', '--yes', '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual([{ proxyRef: lookAlikes[0], removed: true }]);
    const s = await statuses();
    expect(s[lookAlikes[0]!]).toBe('RELEASED');
    for (const ref of [...acme, ...lookAlikes.slice(1)]) expect(s[ref]).toBe('ACTIVE');
    const again = await run('units', 'release', '--customer', 'acme-corp', '--yes', '--json');
    expect(again).toMatchObject({ code: 0, out: '[]' });
    expect(again.err).toContain('No active units tagged customer=acme-corp; nothing was released.');
  });
});
