// The read and write tools as an agent calls them, against the sandbox: the CLI's filters,
// passwords masked unless --reveal-credentials, release only with its confirmation, and every
// failure (a bad argument, an unknown unit, a 5xx, a cancelled call) an isError result with the
// CLI's code and exit code, the server still serving afterwards.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnit, type Kit, makeTestCertificates, seedFleet, startHttpsTarget, startKit, twoPools } from '../helpers/index.js';
import { ok, startMcp, type Called, type McpSession } from './mcp-client.js';

let kit: Kit;
let s: McpSession;
let refs: string[];
let pools: [string, string];
beforeAll(async () => {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  pools = twoPools(kit);
  refs = seedFleet(kit, [
    { poolId: pools[0], hoursLeft: 10, description: 'customer=acme batch 7' },
    { poolId: pools[0], hoursLeft: 100, description: 'customer=globex' },
    { poolId: pools[1], hoursLeft: 5, description: 'customer=acme spare' },
    { poolId: pools[1], hoursLeft: 50, description: 'spare' },
    { hoursLeft: 20, released: true },
  ]);
  s = await startMcp(kit, ['--allow-write']);
});
afterAll(async () => {
  await s.close();
  await kit.close();
});

function refused(c: Called) {
  if (c.ok) throw new Error(`expected a refusal, got ${c.text}`);
  return c.error;
}

const listed = (c: Called) => (ok(c).units as { proxyRef: string }[]).map((u) => u.proxyRef);

describe('read tools', () => {
  it("list_units: the CLI's filters (customer, description text, pool, status, expiry, limit)", async () => {
    expect(listed(await s.call('list_units'))).toEqual(refs.slice(0, 4));
    expect(listed(await s.call('list_units', { customer: 'ACME' }))).toEqual([refs[0], refs[2]]);
    expect(listed(await s.call('list_units', { descriptionContains: 'Spare' }))).toEqual([refs[2], refs[3]]);
    expect(listed(await s.call('list_units', { pool: pools[1].toLowerCase() }))).toEqual([refs[2], refs[3]]);
    expect(listed(await s.call('list_units', { status: 'RELEASED' }))).toEqual([refs[4]]);
    expect(listed(await s.call('list_units', { expiringWithinHours: 24 }))).toEqual([refs[0], refs[2]]);
    const two = ok(await s.call('list_units', { limit: 2 }));
    expect(two).toMatchObject({ count: 2, truncated: true });
    expect(ok(await s.call('list_units', { limit: 4 }))).toMatchObject({ count: 4, truncated: false });
  });

  it('get_unit, get_account, get_prices, list_pools, get_usage, get_spend and list_deliveries answer with structured content', async () => {
    expect(ok(await s.call('get_unit', { ref: refs[1] }))).toMatchObject({
      proxyRef: refs[1],
      poolId: pools[0],
      description: 'customer=globex',
    });
    expect(ok(await s.call('get_account'))).toMatchObject({ balanceUsd: 1000 });
    expect(Object.keys((ok(await s.call('get_prices')).prices as object) ?? {})).toEqual(expect.arrayContaining(['24h', '7d', '30d']));
    const us = ok(await s.call('list_pools', { country: 'us' })).pools as { country: string }[];
    expect(us.length).toBeGreaterThan(0);
    expect(new Set(us.map((p) => p.country))).toEqual(new Set(['US']));
    expect(ok(await s.call('get_usage', { ref: refs[0] }))).toMatchObject({ proxyRef: refs[0] });
    expect(ok(await s.call('get_spend', { by: 'customer' }))).toEqual({ totalUsd: 0, count: 0, groups: [] });
    expect(ok(await s.call('list_deliveries'))).toEqual({ deliveries: [], count: 0, truncated: false });
  });

  it('get_status, get_uptime and check_units: what status, me uptime and units check say', async () => {
    const status = ok(await s.call('get_status'));
    expect(status).toMatchObject({ balanceUsd: 1000, units: { active: 4 } });
    expect(status.customers).toEqual(expect.arrayContaining([expect.objectContaining({ customer: 'acme', activeUnits: 2 })]));
    expect(ok(await s.call('get_uptime'))).toHaveProperty('units');
    expect(refused(await s.call('get_uptime', { day: 2, from: '2026-11-01T00:00:00Z' }))).toMatchObject({ exitCode: 2 });
    // A unit bought through the API listens on a real proxy; the seeded ones here do not.
    const other = await startKit({ balance: 100 });
    const own = await startMcp(other, []);
    try {
      const ref = await createUnit(other.sb);
      const checked = ok(await own.call('check_units', { refs: [ref, 'PRX-999'] }));
      expect(checked).toMatchObject({ passed: 1, failed: 1 });
      expect((checked.results as { ref: string; ok: boolean; error?: string }[]).map((r) => [r.ref, r.ok, r.error ?? null])).toEqual([
        [ref, true, null],
        ['PRX-999', false, 'not_found'],
      ]);
    } finally {
      await own.close();
      await other.close();
    }
  });

  it('check_units against an https target: tls_error for an unknown CA, passing with caCertFile, caCert (PEM text) or insecure', async () => {
    const other = await startKit({ balance: 100 });
    const own = await startMcp(other, []);
    const dir = join(other.home.dir, 'certs');
    mkdirSync(dir);
    const certs = await makeTestCertificates(dir);
    const target = await startHttpsTarget(certs.byTestCa);
    try {
      const ref = await createUnit(other.sb);
      const outcome = async (args: Record<string, unknown>) => {
        const r = ok(await own.call('check_units', { refs: [ref], target: target.url, ...args }));
        return (r.results as { ok: boolean; error: string | null }[]).map((x) => [x.ok, x.error]);
      };
      expect(await outcome({})).toEqual([[false, 'tls_error']]);
      expect(await outcome({ caCertFile: certs.caFile })).toEqual([[true, null]]);
      expect(await outcome({ caCert: readFileSync(certs.caFile, 'utf8') })).toEqual([[true, null]]);
      expect(await outcome({ insecure: true })).toEqual([[true, null]]);
      // A file that holds no certificate is refused before any check, as --ca-cert is.
      const notPem = join(dir, 'not.pem');
      writeFileSync(notPem, 'hello\n');
      const requestsBefore = target.requests;
      expect(refused(await own.call('check_units', { refs: [ref], target: target.url, caCertFile: notPem }))).toMatchObject({
        exitCode: 2,
      });
      expect(target.requests).toBe(requestsBefore);
    } finally {
      await target.close();
      await own.close();
      await other.close();
    }
  }, 60_000);

  it('passwords are masked in every result; --reveal-credentials shows them', async () => {
    const unit = ok(await s.call('get_unit', { ref: refs[0] }));
    expect(unit.credentials).toEqual({ username: `user${refs[0]!.slice(4)}`, password: '********' });
    const all = await s.call('list_units');
    expect(all.text).not.toMatch(/pass\d/);
    expect(all.text).toContain('"password":"********"');
    const open = await startMcp(kit, ['--reveal-credentials']);
    try {
      expect(ok(await open.call('get_unit', { ref: refs[0] })).credentials).toEqual({
        username: `user${refs[0]!.slice(4)}`,
        password: `pass${refs[0]!.slice(4)}`,
      });
    } finally {
      await open.close();
    }
  });
});

describe('failures are isError results with the CLI’s code; the server keeps serving', () => {
  it('bad arguments: a wrong type, a missing field, an unknown status, a malformed ref (exit 2)', async () => {
    for (const [name, args, text] of [
      ['get_unit', { ref: 42 }, 'ref: Invalid input: expected string, received number'],
      ['get_unit', {}, 'ref: Invalid input'],
      ['list_units', { status: 'GONE' }, 'status: Invalid option'],
      ['list_units', { limit: 0 }, 'limit: Too small'],
      ['get_unit', { ref: 'PRX 1' }, 'invalid unit reference "PRX 1"'],
      ['get_spend', { since: 'yesterday' }, 'since must be a date'],
    ] as const) {
      const e = refused(await s.call(name, args));
      expect(e, `${name} ${JSON.stringify(args)}`).toMatchObject({ code: 'usage_error', exitCode: 2 });
      expect(e.message).toContain(text);
    }
  });

  it('an unknown unit is exit 5; a 5xx is exit 9; then the next call works', async () => {
    expect(refused(await s.call('get_unit', { ref: 'PRX-999' }))).toMatchObject({ exitCode: 5 });
    await kit.control('/faults', { failNext: { op: 'release', status: 500, count: 1 } });
    const e = refused(await s.call('release_units', { refs: [refs[3]], confirm: 1 }));
    expect(e).toMatchObject({ code: 'internal_error', exitCode: 9 });
    expect((await kit.state()).units.find((u) => u.proxyRef === refs[3])?.releasedAt).toBeNull();
    expect(ok(await s.call('get_account'))).toMatchObject({ balanceUsd: 1000 });
  });

  it('a cancelled call does not stop the server', async () => {
    const controller = new AbortController();
    const call = s.client.callTool({ name: 'list_units', arguments: {} }, undefined, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(ok(await s.call('get_account'))).toMatchObject({ balanceUsd: 1000 });
  });
});

describe('write tools', () => {
  it('change_protocol and modify_units with credentials: the unit changes in the sandbox, the new password masked', async () => {
    const changed = ok(await s.call('change_protocol', { ref: refs[1], protocol: 'http' }));
    expect(changed).toMatchObject({ proxyRef: refs[1], protocol: 'http' });
    const modified = ok(await s.call('modify_units', { refs: [refs[1]], username: 'agentuser', password: 'Agent-Pass-2026' }));
    expect(modified).toMatchObject({ succeeded: 1 });
    const u = (await kit.state()).units.find((x) => x.proxyRef === refs[1])!;
    expect(u.credentials).toEqual({ username: 'agentuser', password: 'Agent-Pass-2026' });
    expect(JSON.stringify(ok(await s.call('get_unit', { ref: refs[1] })))).not.toContain('Agent-Pass-2026');
    expect(refused(await s.call('change_protocol', { ref: refs[1], protocol: 'http_noauth' }))).toMatchObject({ exitCode: 2 });
  });

  it('release_units is refused without the count confirmed, and releases with it', async () => {
    for (const args of [{ refs: [refs[3]] }, { refs: [refs[3], refs[2]], confirm: 1 }, { refs: [refs[3], refs[3]], confirm: 2 }]) {
      const e = refused(await s.call('release_units', args));
      expect(e.exitCode, JSON.stringify(args)).toBe(2);
    }
    const e = refused(await s.call('release_units', { refs: [refs[3], refs[2]], confirm: 3 }));
    expect(e).toMatchObject({ code: 'not_confirmed', exitCode: 2 });
    expect(e.hint).toContain('confirm: 2');
    expect((await kit.state()).units.filter((u) => u.releasedAt !== null).map((u) => u.proxyRef)).toEqual([refs[4]]);

    const done = ok(await s.call('release_units', { refs: [refs[3]], confirm: 1 }));
    expect(done).toMatchObject({ succeeded: 1, failed: 0, items: [{ ok: true, proxyRef: refs[3], removed: true }] });
    expect((await kit.state()).units.find((u) => u.proxyRef === refs[3])?.releasedAt).not.toBeNull();
  });

  it('modify_units tags a customer keeping the text; swap_unit moves a unit to the pool named', async () => {
    const tagged = ok(await s.call('modify_units', { refs: [refs[1], 'PRX-999'], customer: 'initech' }));
    expect(tagged).toMatchObject({ succeeded: 1, failed: 1 });
    expect((tagged.items as { ok: boolean; error?: { exitCode: number } }[])[1]).toMatchObject({
      ok: false,
      proxyRef: 'PRX-999',
      error: { exitCode: 5 },
    });
    expect(ok(await s.call('get_unit', { ref: refs[1] })).description).toBe('customer=initech');
    const before = (await kit.state()).units.find((u) => u.proxyRef === refs[1])!;
    const swapped = ok(await s.call('swap_unit', { ref: refs[1], pool: pools[1] }));
    const after = (await kit.state()).units.find((u) => u.proxyRef === refs[1])!;
    expect(swapped).toMatchObject({ proxyRef: refs[1], poolId: pools[1], previousAddress: `${before.ip}:${before.port}` });
    // The old address is gone: said as the CLI says it, with the new one the server now holds.
    expect(swapped.change).toBe(`${refs[1]} moved to ${pools[1]}: address changed ${before.ip}:${before.port} → ${after.ip}:${after.port}`);
    expect(refused(await s.call('swap_unit', { ref: refs[1] }))).toMatchObject({ exitCode: 2 });
  });
});
