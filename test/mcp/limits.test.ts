// What an agent can make the server do to the machine it runs on, and how big its answers get:
// check_units reads only a regular CA file of bounded size (never its own stdin, a FIFO or a
// device) and says the same "not usable" for any other path; the flags that cannot work are said;
// results stay short at 10,000 units; and status's uptime is read once in 5 minutes, not on every
// call. Driven over raw stdio against the sandbox; the server's memory stays under 250 MB.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, seedFleet, startKit } from '../helpers/index.js';
import { rawMcp, toolError, type RawMcp } from './raw-client.js';

async function endCleanly(s: RawMcp): Promise<void> {
  const peak = s.peakRssMb();
  const r = await s.end();
  expect(r.exitCode, s.stderr()).toBe(0);
  expect(s.strays).toEqual([]);
  expect(peak).toBeLessThan(250);
}

const uptimeRequests = (k: Kit, from = 0) =>
  k.sb
    .requestLog()
    .slice(from)
    .filter((r) => r.url.startsWith('/api/reseller/v1/me/uptime')).length;

describe('check_units and the files an agent names', () => {
  let kit: Kit;
  let ref: string;
  beforeAll(async () => {
    kit = await startKit({ balance: 100, rateLimit: 10_000 });
    [ref] = seedFleet(kit, [{ hoursLeft: 10 }]) as [string];
  });
  afterAll(() => kit.close());

  it('its own stdin, a FIFO, /dev/zero, a directory, a file too big, a non-certificate and a missing file: one "not usable", at once; the server keeps serving', async () => {
    const dir = kit.home.dir;
    const fifo = join(dir, 'ca.fifo');
    execFileSync('mkfifo', [fifo]);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a certificate\n');
    const big = join(dir, 'big.pem');
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 'A'));
    const s = rawMcp(kit); // read-only
    try {
      await s.initialize();
      const before = kit.sb.requestLog().length;
      const paths = ['/dev/stdin', fifo, '/dev/zero', dir, big, text, '/etc/passwd', join(dir, 'missing.pem')];
      const answers = [];
      for (const [i, path] of paths.entries()) {
        const e = toolError(await s.call(i + 1, 'check_units', { refs: [ref], caCertFile: path }));
        expect(e, path).toMatchObject({ code: 'usage_error', exitCode: 2 });
        answers.push({ message: e.message.replace(JSON.stringify(path), '<path>'), hint: e.hint });
      }
      // One answer, whatever is (or is not) at the path.
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0]!.message).toBe('caCertFile <path> is not usable');
      // Refused before any request, and stdin was not read: the next call is answered.
      expect(kit.sb.requestLog().slice(before)).toEqual([]);
      expect((await s.call(99, 'get_account')).result?.structuredContent).toMatchObject({ balanceUsd: 100 });
      // PEM text that is not a certificate says why (it is the agent's own text).
      const pem = toolError(await s.call(100, 'check_units', { refs: [ref], caCert: 'hello' }));
      expect(pem).toMatchObject({ exitCode: 2, message: 'caCert holds no PEM certificate (-----BEGIN CERTIFICATE-----)' });
      const both = toolError(await s.call(101, 'check_units', { refs: [ref], caCert: 'x', caCertFile: text }));
      expect(both.message).toBe('give caCert (PEM text) or caCertFile, not both');
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  });
});

describe('the flags that cannot work are said', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(() => kit.close());

  it('--quote-ttl 0 (every quote expired at once) is exit 2 before serving', async () => {
    for (const ttl of ['0', '9', '3601']) {
      const r = await kit.run(['mcp', '--allow-spend', '--quote-ttl', ttl], { stdin: 'pipe' });
      expect(r.exitCode, ttl).toBe(2);
      expect(String(r.stderr)).toContain('--quote-ttl');
      expect(String(r.stdout)).toBe('');
    }
  });

  it('--read-only beside --allow-spend or --allow-write: a warning on stderr naming them, and only the read tools', async () => {
    const s = rawMcp(kit, ['--read-only', '--allow-spend', '--allow-write']);
    try {
      await s.initialize();
      await s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(((await s.answer(1)).result as { tools: unknown[] }).tools).toHaveLength(13);
      expect(s.stderr()).toContain('--read-only wins over --allow-write and --allow-spend');
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
    const quiet = rawMcp(kit, ['--read-only']);
    try {
      await quiet.initialize();
      await endCleanly(quiet);
      expect(quiet.stderr()).not.toContain('wins over');
    } finally {
      quiet.child.kill();
    }
  });
});

describe('answers stay short at 10,000 units', () => {
  let kit: Kit;
  let acme: string[];
  beforeAll(async () => {
    kit = await startKit({ balance: 1000, rateLimit: 100_000, uptimeRateLimit: 1000 });
    const specs = Array.from({ length: 10_000 }, (_, i) => ({
      hoursLeft: 2 + (i % 20),
      description: i % 2500 === 7 ? `customer=acme n${i}` : `customer=c${i % 40}`,
    }));
    const seeded = seedFleet(kit, specs);
    acme = seeded.filter((_, i) => i % 2500 === 7);
  });
  afterAll(() => kit.close());

  it('get_status: 20 expiring and 20 customers with the totals and where the rest is; list_units says what it scanned and pages; get_uptime lists the worst units first', async () => {
    const s = rawMcp(kit);
    try {
      await s.initialize();
      const status = await s.call(1, 'get_status');
      const text = status.result!.content![0]!.text;
      expect(text.length).toBeLessThan(20_000);
      const st = status.result!.structuredContent as {
        units: { expiringWithin24h: number; expiring: { proxyRef: string; expiresIn: number }[] };
        customers: unknown[];
        customersTotal: number;
        more: string[];
      };
      expect(st.units.expiringWithin24h).toBe(10_000);
      expect(st.units.expiring).toHaveLength(20);
      const left = st.units.expiring.map((u) => u.expiresIn);
      expect(left).toEqual([...left].sort((a, b) => a - b));
      expect(st.customers).toHaveLength(20);
      expect(st.customersTotal).toBe(41);
      expect(st.more).toEqual([
        'units.expiring lists the 20 expiring soonest of 10000: list_units with expiringWithinHours: 24 lists them all',
        'customers lists the 20 who spent most of 41: list_customers lists them all',
      ]);

      // A customer filter reads the fleet to find four units, and says so.
      const found = (await s.call(2, 'list_units', { customer: 'acme' })).result!.structuredContent as {
        units: { proxyRef: string }[];
        count: number;
        truncated: boolean;
        scanned: number;
      };
      expect(found).toMatchObject({ count: 4, truncated: false, scanned: 10_000 });
      expect(found.units.map((u) => u.proxyRef)).toEqual(acme);
      const first = (await s.call(3, 'list_units', { customer: 'acme', limit: 3 })).result!.structuredContent as Record<string, unknown>;
      expect(first).toMatchObject({ count: 3, truncated: true, nextOffset: 3 });
      const rest = (await s.call(4, 'list_units', { customer: 'acme', limit: 3, offset: 3 })).result!.structuredContent as {
        units: { proxyRef: string }[];
        truncated: boolean;
      };
      expect(rest.units.map((u) => u.proxyRef)).toEqual(acme.slice(3));
      expect(rest.truncated).toBe(false);

      const up = (await s.call(5, 'get_uptime')).result!.structuredContent as {
        units: { uptimePercent: number | null }[];
        unitsTotal: number;
        truncated: boolean;
        nextOffset: number;
      };
      expect(up).toMatchObject({ unitsTotal: 10_000, truncated: true, nextOffset: 50 });
      expect(up.units).toHaveLength(50);
      const pct = up.units.map((u) => u.uptimePercent ?? 101);
      expect(pct).toEqual([...pct].sort((a, b) => a - b));
      expect((await s.call(6, 'get_uptime')).result!.content![0]!.text.length).toBeLessThan(20_000);
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  }, 120_000);
});

describe('uptime: what get_uptime.day means, and status reading it once in 5 minutes', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ balance: 100, rateLimit: 10_000 });
    seedFleet(kit, [{ hoursLeft: 100 }]);
  });
  afterAll(() => kit.close());

  it('day: N is the last N days, and the description says so', async () => {
    const s = rawMcp(kit);
    try {
      await s.initialize();
      await s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const tools = (
        (await s.answer(1)).result as { tools: { name: string; inputSchema: { properties: Record<string, { description?: string }> } }[] }
      ).tools;
      const day = tools.find((t) => t.name === 'get_uptime')!.inputSchema.properties.day!.description;
      expect(day).toBe('the last N days up to now (1 = the last 24 hours, 7 = the last week)');
      const r = (await s.call(2, 'get_uptime', { day: 3 })).result!.structuredContent as { from: string; to: string };
      expect(Date.parse(r.to) - Date.parse(r.from)).toBe(3 * 86_400_000);
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  });

  it('get_status three times, then status twice: one reading of the day (four windows), not twenty', async () => {
    const before = kit.sb.requestLog().length;
    const s = rawMcp(kit);
    try {
      await s.initialize();
      const first = (await s.call(1, 'get_status')).result!.structuredContent as { uptime: { windows: unknown[] } };
      expect(first.uptime.windows).toHaveLength(4);
      for (const id of [2, 3]) {
        const again = (await s.call(id, 'get_status')).result!.structuredContent as { uptime: unknown };
        expect(again.uptime).toEqual(first.uptime);
      }
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
    for (let i = 0; i < 2; i++) {
      const r = await kit.run(['status', '--json']);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(JSON.parse(String(r.stdout)).uptime).toMatchObject({ windows: expect.any(Array) });
    }
    expect(uptimeRequests(kit, before)).toBe(4);
  }, 60_000);
});
