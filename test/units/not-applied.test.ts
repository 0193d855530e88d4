// `extended: false`, `removed: false`, `modified: false` are never reported as done: the item fails
// (exit 9, or 10 when others in the batch applied) with the API's answer, and the unit (and for
// extend the balance) is read back to say what actually happened.
import { afterEach, describe, expect, it } from 'vitest';
import { json, proxyctl, type ScriptedServer, startKit, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-08T00:00:00.000Z';

/** What the fake API does when asked to extend / release / modify a ref. */
type Behaviour = 'applies' | 'false' | 'false-charged' | 'false-moved';

interface FakeApi {
  server: ScriptedServer;
  balance: number;
  units: Map<string, { expiresAt: string; status: string; description: string }>;
  posts(): string[];
}

let fake: FakeApi | undefined;
let home: TempHome | undefined;
afterEach(async () => {
  await fake?.server.close();
  home?.cleanup();
  fake = undefined;
  home = undefined;
});

async function startFake(behaviour: Record<string, Behaviour>): Promise<FakeApi> {
  const units = new Map(Object.keys(behaviour).map((ref) => [ref, { expiresAt: T0, status: 'ACTIVE', description: 'shop' }]));
  const api: FakeApi = {
    balance: 100,
    units,
    server: await startScriptedServer((req, res) => {
      const path = req.url.replace(/^\/api\/reseller\/v1/, '').replace(/\?.*$/, '');
      const m = /^\/units\/([^/]+)(\/extend)?$/.exec(path);
      const ref = m ? decodeURIComponent(m[1]!) : '';
      const unit = units.get(ref);
      const how = behaviour[ref];
      const rid = { 'x-request-id': `req_${req.method}_${ref}` };
      if (path === '/prices') return json(res, 200, { prices: { '7d': 5 } });
      if (path === '/account') return json(res, 200, { balanceUsd: api.balance });
      if (!unit) return json(res, 404, { error: { type: 'not_found_error', code: 'unit_not_found', message: `no unit ${ref}` } });
      if (req.method === 'GET') return json(res, 200, { proxyRef: ref, ...unit, ip: '203.0.113.1', port: 10001 });
      if (req.method === 'POST' && m![2]) {
        if (how === 'applies' || how === 'false-charged' || how === 'false-moved') api.balance -= 5;
        if (how === 'applies' || how === 'false-moved') unit.expiresAt = T1;
        return json(res, 200, { proxyRef: ref, expiresAt: unit.expiresAt, extended: how === 'applies' }, rid);
      }
      if (req.method === 'DELETE') {
        if (how === 'applies') unit.status = 'RELEASED';
        return json(res, 200, { proxyRef: ref, removed: how === 'applies' }, rid);
      }
      if (req.method === 'PATCH') {
        const body = JSON.parse(req.body) as { description?: string };
        if (how === 'applies' && body.description !== undefined) unit.description = body.description;
        return json(res, 200, { proxyRef: ref, modified: how === 'applies' }, rid);
      }
      return json(res, 500, { error: { code: 'unexpected', message: 'unexpected' } });
    }),
    posts: () =>
      api.server.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url.replace(/^\/api\/reseller\/v1/, '')}`),
  };
  return api;
}

function cli(args: string[]) {
  home ??= tempHome();
  return proxyctl(args, { home, env: { PROXYCTL_BASE_URL: fake!.server.url, PROXYCTL_API_KEY: 'sk_test_not_applied' } });
}

const jsonErr = (stderr: unknown) => JSON.parse(String(stderr).trim().split('\n').at(-1)!).error;

/** One ref answering false, run with --json: exit 9, nothing on stdout; returns the error object. */
async function failsWith9(args: string[]): Promise<Record<string, unknown>> {
  fake = await startFake({ 'PRX-1': 'false' });
  const r = await cli([...args, '--json']);
  expect(r.exitCode).toBe(9);
  expect(String(r.stdout)).toBe('');
  return jsonErr(r.stderr);
}

describe('units extend', () => {
  it('fails with exit 9 on extended: false, and says the expiry and balance did not move', async () => {
    fake = await startFake({ 'PRX-1': 'false' });
    const r = await cli(['units', 'extend', 'PRX-1', '--period', '7d']);
    expect(r.exitCode).toBe(9);
    expect(String(r.stdout)).toBe('');
    expect(String(r.stderr)).toContain('error: the API answered extended: false for PRX-1; expiry unchanged; balance unchanged');
    expect(String(r.stderr)).toContain('request id req_POST_PRX-1');
    expect(fake.posts()).toEqual(['POST /units/PRX-1/extend']);
  });

  it('puts the API answer and the read-back in the --json error', async () => {
    expect(await failsWith9(['units', 'extend', 'PRX-1', '--period', '7d'])).toEqual({
      code: 'not_applied',
      message: 'the API answered extended: false for PRX-1; expiry unchanged; balance unchanged',
      answer: { proxyRef: 'PRX-1', expiresAt: T0, extended: false },
      requestId: 'req_POST_PRX-1',
      found: { expiresAtBefore: T0, expiresAtAfter: T0, expiryMoved: false, balanceBefore: 100, balanceAfter: 100, chargePossible: false },
      hint: 'nothing appears to have changed; check with proxyctl units get PRX-1 before extending it again by 7d',
    });
  });

  it('says a charge appears possible when the balance dropped', async () => {
    fake = await startFake({ 'PRX-1': 'false-charged' });
    const r = await cli(['units', 'extend', 'PRX-1', '--period', '7d']);
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toContain(
      'the API answered extended: false for PRX-1; expiry unchanged; balance went from 100.00 USD to 95.00 USD; a charge appears possible',
    );
  });

  it('says when the expiry moved although the API answered false', async () => {
    fake = await startFake({ 'PRX-1': 'false-moved' });
    const r = await cli(['units', 'extend', 'PRX-1', '--period', '7d', '--json']);
    expect(r.exitCode).toBe(9);
    const e = jsonErr(r.stderr);
    expect(e.message).toBe(
      `the API answered extended: false for PRX-1; expiry moved from ${T0} to ${T1}; balance went from 100.00 USD to 95.00 USD; a charge appears possible`,
    );
    expect(e.found).toMatchObject({ expiryMoved: true, chargePossible: true });
  });

  it('fails only that item in a batch: exit 10, the answer in the JSON items', async () => {
    fake = await startFake({ 'PRX-1': 'applies', 'PRX-2': 'false' });
    const r = await cli(['units', 'extend', 'PRX-1', 'PRX-2', '--period', '7d', '--json']);
    expect(r.exitCode).toBe(10);
    const rows = JSON.parse(String(r.stdout)) as Record<string, unknown>[];
    expect(rows[0]).toEqual({ proxyRef: 'PRX-1', expiresAt: T1, extended: true });
    expect(rows[1]).toMatchObject({
      proxyRef: 'PRX-2',
      extended: false,
      error: { code: 'not_applied', answer: { proxyRef: 'PRX-2', expiresAt: T0, extended: false } },
    });
    const e = jsonErr(r.stderr);
    expect(e.code).toBe('partial_failure');
    expect(e.items[1]).toMatchObject({
      item: 'PRX-2',
      ok: false,
      error: { code: 'not_applied', requestId: 'req_POST_PRX-2', answer: { extended: false } },
    });
    expect(e.items[1].error.message).toMatch(/^the API answered extended: false for PRX-2; expiry unchanged; /);
  });

  it('a batch where every answer is false exits 9', async () => {
    fake = await startFake({ 'PRX-1': 'false', 'PRX-2': 'false' });
    const r = await cli(['units', 'extend', 'PRX-1', 'PRX-2', '--period', '7d']);
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toContain('0 of 2 extended');
    expect(String(r.stderr)).toContain('failed PRX-2: the API answered extended: false for PRX-2; expiry unchanged');
  });
});

describe('units release', () => {
  it('fails with exit 9 on removed: false and says the unit still reads as active', async () => {
    expect(await failsWith9(['units', 'release', 'PRX-1', '--yes'])).toEqual({
      code: 'not_applied',
      message: 'the API answered removed: false for PRX-1; the unit still reads as ACTIVE',
      answer: { proxyRef: 'PRX-1', removed: false },
      requestId: 'req_DELETE_PRX-1',
      found: { status: 'ACTIVE' },
      hint: 'check with proxyctl units get PRX-1 before releasing it again',
    });
  });

  it('exit 10 when some of a batch were removed', async () => {
    fake = await startFake({ 'PRX-1': 'applies', 'PRX-2': 'false' });
    const r = await cli(['units', 'release', 'PRX-1', 'PRX-2', '--yes']);
    expect(r.exitCode).toBe(10);
    expect(String(r.stderr)).toContain('1 of 2 released: PRX-1');
    expect(String(r.stderr)).toContain('failed PRX-2: the API answered removed: false for PRX-2; the unit still reads as ACTIVE');
  });
});

describe('units modify', () => {
  it('fails with exit 9 on modified: false and says whether the unit holds the requested settings', async () => {
    expect(await failsWith9(['units', 'modify', 'PRX-1', '--description', 'shop'])).toMatchObject({
      code: 'not_applied',
      message: 'the API answered modified: false for PRX-1; the unit already has the requested settings',
      answer: { proxyRef: 'PRX-1', modified: false },
      requestId: 'req_PATCH_PRX-1',
      found: { differs: [] },
    });
    const other = await cli(['units', 'modify', 'PRX-1', '--description', 'new shop']);
    expect(other.exitCode).toBe(9);
    expect(String(other.stderr)).toContain(
      'error: the API answered modified: false for PRX-1; the unit does not have the requested description',
    );
  });
});

describe('against the sandbox', () => {
  it('a modify that changes nothing is applied (modified: true), so it succeeds', async () => {
    const kit = await startKit();
    try {
      const pool = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data.find((p) => p.available)!;
      const made = await kit.run(['units', 'create', '--pool', pool.poolId, '--period', '3h', '--json']);
      expect(made.exitCode).toBe(0);
      const ref = (JSON.parse(String(made.stdout)) as { proxyRef: string }).proxyRef;
      for (let i = 0; i < 2; i += 1) {
        const r = await kit.run(['units', 'modify', ref, '--description', 'shop #4', '--json']);
        expect(r.exitCode).toBe(0);
        expect(JSON.parse(String(r.stdout))).toEqual({ proxyRef: ref, modified: true });
      }
      expect((await kit.api<{ description: string }>(`/units/${ref}`)).description).toBe('shop #4');
    } finally {
      await kit.close();
    }
  });
});
