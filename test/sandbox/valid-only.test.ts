// The sandbox serves only valid data, whatever it is sent (found by a fuzzer run): a clock that
// stops at its end, a bounded --time-scale, the 413 it builds, empty query values, trigger and
// faults bodies checked field by field, and its own routes described in openapi.json fully.
// Everything here goes through raw HTTP (fetch or node:http), never the proxyctl client.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { isIPv4 } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  buy,
  call,
  errorOf,
  PREFIX,
  pollUntil,
  proxyctl,
  startFastSandbox,
  startWebhookSink,
  tempHome,
  type WebhookSink,
} from '../helpers/index.js';

const LATEST = '9999-12-31T23:59:59.999Z';
const LATEST_MS = Date.parse(LATEST);
/** Every string in `v` that looks like a date must be a plain four-digit-year ISO date. */
function datesIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && /^[+-]?\d{4,6}-\d{2}-\d{2}T/.test(v)) out.push(v);
  else if (Array.isArray(v)) for (const x of v) datesIn(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) datesIn(x, out);
  return out;
}

const home = tempHome();
let sb: Sandbox;
beforeAll(async () => {
  sb = await startFastSandbox();
});
afterAll(async () => {
  await sb.close();
  home.cleanup();
});

describe('the clock', () => {
  it('--time-scale beyond 1000000 is refused at start with exit 2; startSandbox refuses it too', async () => {
    for (const scale of ['1e308', '1e10', '1000001']) {
      const r = await proxyctl(['sandbox', '--port', '0', '--time-scale', scale], { home });
      expect([r.exitCode, String(r.stderr)], scale).toEqual([
        2,
        expect.stringContaining('--time-scale must be a number > 0 and at most 1000000'),
      ]);
    }
    await expect(startSandbox({ port: 0, timeScale: 1e10 })).rejects.toThrow(/timeScale must be > 0 and at most 1000000/);
  });

  it('stops at its end: state, uptime, deliveries and the state file keep valid dates after real time runs on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-end-'));
    const stateFile = join(dir, 'state.json');
    // The fastest clock allowed: one real millisecond is 1000 sandbox seconds.
    const own = await startFastSandbox({ timeScale: 1_000_000, stateFile });
    const rx: WebhookSink = await startWebhookSink(500);
    try {
      await call(own, 'PATCH', '/webhook', { body: { url: rx.url } });
      expect((await buy(own, { period: '3h' })).status).toBe(201);
      const { now } = (await call(own, 'GET', '/_sandbox/state')).body;
      // 200,000 sandbox seconds short of the end: 0.2 real seconds at this scale.
      const left = Math.floor((LATEST_MS - Date.parse(now)) / 1000);
      const adv = await call(own, 'POST', '/_sandbox/advance', { body: { seconds: left - 200_000 } });
      expect(adv.status, adv.text).toBe(200);
      // A failing receiver: each attempt schedules the next one after its retry delay.
      expect((await call(own, 'POST', '/_sandbox/trigger', { body: { event: 'balance.low' } })).status).toBe(202);
      await pollUntil(async () => (await call(own, 'GET', '/_sandbox/state')).body.now === LATEST);
      await pollUntil(async () =>
        (await call(own, 'GET', '/_sandbox/state')).body.deliveries.some((d: { attempts: number }) => d.attempts >= 2),
      );
      const state = (await call(own, 'GET', '/_sandbox/state')).body;
      expect(state.now).toBe(LATEST);
      const uptime = await call(own, 'GET', '/me/uptime');
      expect(uptime.status, uptime.text).toBe(200);
      const deliveries = await call(own, 'GET', '/webhook/deliveries');
      const all = [...datesIn(state), ...datesIn(uptime.body), ...datesIn(deliveries.body)];
      expect(all.length).toBeGreaterThan(5);
      for (const d of all) expect(d, 'a date the API answers').toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Math.max(...all.map((d) => Date.parse(d)))).toBe(LATEST_MS);
      expect(uptime.body.to).toBe(LATEST);
      // A create still answers (refused: it would expire after the end), never a 500.
      const made = await buy(own, { period: '3h' });
      expect([made.status, errorOf(made).code]).toEqual([400, 'validation_error']);
      // The state file keeps no instant past the end either.
      const file = JSON.parse(readFileSync(stateFile, 'utf8')) as {
        savedAt: number;
        deliveries: { createdAt: number; nextAttemptAt: number | null }[];
      };
      expect(file.savedAt).toBe(LATEST_MS);
      for (const d of file.deliveries) {
        expect(d.createdAt).toBeLessThanOrEqual(LATEST_MS);
        if (d.nextAttemptAt !== null) expect(d.nextAttemptAt).toBeLessThanOrEqual(LATEST_MS);
      }
    } finally {
      await own.close();
      await rx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** One request over a plain socket, writing `bodyBytes` bytes of JSON-ish body. */
function rawPost(path: string, bodyBytes: number): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const url = new URL(sb.baseUrl + path);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json', 'content-length': bodyBytes },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = bodyBytes;
    const write = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('what the pipeline builds reaches the client', () => {
  it('a body over 1 MiB gets the 413 envelope with its X-Request-Id (not a reset), and nothing is bought', async () => {
    const before = (await call(sb, 'GET', '/_sandbox/state')).body;
    const r = await rawPost(`${PREFIX}/units`, 2 * 1024 * 1024);
    expect(r.status, r.text).toBe(413);
    const body = JSON.parse(r.text);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'payload_too_large', requestId: r.headers['x-request-id'] });
    const after = (await call(sb, 'GET', '/_sandbox/state')).body;
    expect([after.balanceUsd, after.units.length]).toEqual([before.balanceUsd, before.units.length]);
    // The connection stays usable for the next request.
    expect((await call(sb, 'GET', '/account')).status).toBe(200);
  });

  it('empty query values are refused with 400 naming the parameter, as the schema implies', async () => {
    for (const path of [
      '/units?pageSize=',
      '/units?page=',
      '/units?status=',
      '/units?includeExpired=',
      '/units?expiringWithinHours=',
      '/units?poolId=',
      '/me/uptime?day=',
      '/me/uptime?from=',
      '/webhook/deliveries?status=',
      '/webhook/deliveries?event=',
      '/pools?country=',
      '/states?country=',
    ]) {
      const r = await call(sb, 'GET', path);
      const name = /\?(\w+)=/.exec(path)![1]!;
      expect([r.status, errorOf(r).code, errorOf(r).message], path).toEqual([400, 'validation_error', expect.stringContaining(name)]);
    }
    // Absent still means the default.
    expect((await call(sb, 'GET', '/units?includeExpired=true')).status).toBe(200);
  });
});

describe('control bodies are checked field by field', () => {
  it('/_sandbox/trigger refuses a null, a wrong type or a field of another event, firing nothing', async () => {
    const ref = (await buy(sb, { period: '3h' })).body.proxyRef as string;
    const deliveries = (await call(sb, 'GET', '/_sandbox/state')).body.deliveries.length;
    for (const body of [
      { event: 'usage.warning', proxyRef: ref, kind: null },
      { event: 'usage.warning', proxyRef: ref, kind: 'explode' },
      { event: 'server.ip_changed', poolId: 'US-11', newIp: {} },
      { event: 'unit.down', proxyRef: ref, newIp: '127.0.0.1' },
      { event: 'unit.down', proxyRef: ref, reason: null },
      { event: 'usage.throttled', proxyRef: ref, limitMb: '5' },
      { event: 'balance.low', proxyRef: ref },
      { event: 'unit.swapped' },
      { event: 'unit.up', proxyRef: ref, poolId: 'US-11' },
    ]) {
      const r = await call(sb, 'POST', '/_sandbox/trigger', { body });
      expect([r.status, errorOf(r).code], JSON.stringify(body)).toEqual([400, 'validation_error']);
    }
    const r = await call(sb, 'POST', '/_sandbox/trigger', { body: { event: 'unit.down', proxyRef: ref, newIp: '127.0.0.1' } });
    expect(errorOf(r).message).toBe('newIp is not a field of unit.down (it takes proxyRef, reason)');
    expect((await call(sb, 'GET', '/_sandbox/state')).body.deliveries.length).toBe(deliveries);
    const unit = (await call(sb, 'GET', `/units/${ref}`)).body;
    // The right fields still fire, with the unit's own figures where none is given.
    const ok = await call(sb, 'POST', '/_sandbox/trigger', { body: { event: 'unit.created', proxyRef: ref } });
    expect(ok.status, ok.text).toBe(202);
    expect(ok.body.data).toEqual({ proxyRef: ref, poolId: unit.poolId, period: '3h', pricePaid: expect.any(Number) });
  });

  it('/_sandbox/faults refuses an op that names no operation (it would never fire), and arms nothing', async () => {
    const armed = (await call(sb, 'GET', '/_sandbox/faults')).body;
    for (const body of [{ failNext: { op: 'createUnits', status: 503 } }, { dropAfterCommit: { op: 'buy', count: 1 } }]) {
      const r = await call(sb, 'POST', '/_sandbox/faults', { body });
      expect([r.status, errorOf(r).code], JSON.stringify(body)).toEqual([400, 'validation_error']);
      expect(errorOf(r).message).toContain('createUnit');
    }
    expect((await call(sb, 'GET', '/_sandbox/faults')).body).toEqual(armed);
    expect(() => sb.faults({ failNext: { op: 'nope', status: 500, count: 1 } })).toThrow(/op must be/);
    // Both an operationId and a short name arm.
    for (const op of ['createUnit', 'create', 'webhook-test']) {
      const r = await call(sb, 'POST', '/_sandbox/faults', { body: { failNext: { op, status: 503, count: 0 } } });
      expect(r.status, `${op}: ${r.text}`).toBe(200);
    }
    await call(sb, 'DELETE', '/_sandbox/faults');
  });
});

describe('openapi.json describes the sandbox routes and the transport answers', () => {
  type Op = {
    operationId: string;
    tags: string[];
    requestBody?: { content: Record<string, { schema: object }> };
    responses: Record<string, { content?: Record<string, { schema: object }> }>;
  };
  let raw: Record<string, unknown> & { paths: Record<string, Record<string, Op>> };
  let ops: Record<string, Op & { method: string }>;
  let ajv: Ajv2020;
  beforeAll(async () => {
    raw = (await call(sb, 'GET', '/openapi.json', { key: null })).body;
    const doc = (await SwaggerParser.dereference(structuredClone(raw) as never)) as unknown as typeof raw;
    ops = {};
    for (const byMethod of Object.values(doc.paths))
      for (const [method, op] of Object.entries(byMethod)) ops[op.operationId] = { ...op, method };
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('ipv4', (v: string) => isIPv4(v));
    ajv.addFormat('uri', (v: string) => URL.canParse(v));
    ajv.addFormat('date-time', (v: string) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)));
  });

  it('still validates with two independent validators (swagger-parser; ajv compiling every schema)', async () => {
    await expect(SwaggerParser.validate(structuredClone(raw) as never)).resolves.toBeTruthy();
    const schemas: object[] = [];
    for (const op of Object.values(ops)) {
      for (const c of Object.values(op.requestBody?.content ?? {})) schemas.push(c.schema);
      for (const r of Object.values(op.responses)) for (const c of Object.values(r.content ?? {})) schemas.push(c.schema);
    }
    for (const schema of schemas) expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('every operation documents 405, 408 and 431, and 413 where it takes a body', () => {
    for (const [id, op] of Object.entries(ops)) {
      for (const st of ['405', '408', '431']) expect(op.responses[st], `${id} ${st}`).toBeDefined();
      if (op.method !== 'get') expect(op.responses['413'], `${id} 413`).toBeDefined();
    }
    const e413 = (raw as unknown as { components: { responses: Record<string, { description: string }> } }).components.responses.E413!;
    expect(e413.description).toContain('payload_too_large');
  });

  /** Object schemas that say nothing of their fields: what a typed client turns into `{}`. */
  function emptyObjects(schema: unknown, at: string, out: string[]): string[] {
    if (Array.isArray(schema)) for (const [i, x] of schema.entries()) emptyObjects(x, `${at}[${i}]`, out);
    else if (schema && typeof schema === 'object') {
      const o = schema as Record<string, unknown>;
      const props = o.properties as Record<string, unknown> | undefined;
      if (o.type === 'object' && (!props || Object.keys(props).length === 0) && o.additionalProperties !== false) out.push(at);
      for (const [k, v] of Object.entries(o)) emptyObjects(v, `${at}.${k}`, out);
    }
    return out;
  }

  it("the sandbox's own routes describe every field (no open {} object), and their answers match", async () => {
    const sandboxOps = Object.values(ops).filter((o) => o.tags.includes('sandbox'));
    expect(sandboxOps.map((o) => o.operationId).sort()).toEqual([
      'sandboxAdvance',
      'sandboxClearFaults',
      'sandboxGetFaults',
      'sandboxSetBalance',
      'sandboxSetFaults',
      'sandboxState',
      'sandboxTrigger',
    ]);
    for (const op of sandboxOps) expect(emptyObjects(op, op.operationId, []), op.operationId).toEqual([]);

    // Answers checked against their schemas, closed where the document closes them.
    const ref = (await buy(sb, { period: '3h' })).body.proxyRef as string;
    const check = (op: string, status: string, body: unknown) => {
      const schema = ops[op]!.responses[status]!.content!['application/json']!.schema;
      expect(ajv.validate(schema, body), `${op}: ${ajv.errorsText()}`).toBe(true);
    };
    await call(sb, 'POST', '/_sandbox/faults', { body: { failNext: { op: 'get', status: 503, count: 0 } } });
    check('sandboxGetFaults', '200', (await call(sb, 'GET', '/_sandbox/faults')).body);
    check('sandboxClearFaults', '200', (await call(sb, 'DELETE', '/_sandbox/faults')).body);
    for (const body of [
      { event: 'unit.down', proxyRef: ref },
      { event: 'unit.up', proxyRef: ref },
      { event: 'server.down', poolId: 'US-11' },
      { event: 'server.up', poolId: 'US-11' },
      { event: 'unit.extended', proxyRef: ref },
    ]) {
      const trigger = ops.sandboxTrigger!.requestBody!.content['application/json']!.schema;
      expect(ajv.validate(trigger, body), JSON.stringify(body)).toBe(true);
      check('sandboxTrigger', '202', (await call(sb, 'POST', '/_sandbox/trigger', { body })).body);
    }
    const trigger = ops.sandboxTrigger!.requestBody!.content['application/json']!.schema;
    expect(ajv.validate(trigger, { event: 'usage.warning', proxyRef: ref, kind: null })).toBe(false);
    expect(ajv.validate(trigger, { event: 'unit.down', proxyRef: ref, newIp: '127.0.0.1' })).toBe(false);
    const state = (await call(sb, 'GET', '/_sandbox/state')).body;
    expect(state.units.length).toBeGreaterThan(0);
    check('sandboxState', '200', state);
    expect(ajv.validate(ops.sandboxState!.responses['200']!.content!['application/json']!.schema, { ...state, extra: 1 })).toBe(false);
  });
});
