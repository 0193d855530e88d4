// The served OpenAPI description: valid OpenAPI 3.1 by a third-party validator, every served
// operation described with an operationId, and --alt-paths moves the three unshown operations.
import { randomUUID } from 'node:crypto';
import { isIPv4 } from 'node:net';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { buy, call, startFastSandbox } from '../helpers/index.js';

let sb: Sandbox;
let alt: Sandbox;
beforeAll(async () => {
  sb = await startFastSandbox();
  alt = await startFastSandbox({ altPaths: true });
});
afterAll(async () => {
  await sb.close();
  await alt.close();
});

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; requestBody?: unknown; responses: Record<string, unknown> }>>;
};
const fetchDoc = async (s: Sandbox) => (await call(s, 'GET', '/openapi.json', { key: null })).body as Doc;

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    const doc = await fetchDoc(sb);
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(structuredClone(await fetchDoc(alt)) as never)).resolves.toBeTruthy();
  });

  it('the validator does reject a broken document (so the check above can fail)', async () => {
    const dangling = structuredClone(await fetchDoc(sb)) as Doc;
    dangling.paths['/api/reseller/v1/units']!.get!.responses = { '200': { $ref: '#/components/responses/Nope' } };
    await expect(SwaggerParser.validate(dangling as never)).rejects.toThrow();
    const malformed = structuredClone(await fetchDoc(sb)) as Doc & { paths: Record<string, Record<string, { parameters?: unknown }>> };
    malformed.paths['/api/reseller/v1/units']!.get!.parameters = [{ name: 'p', in: 'nowhere' }];
    await expect(SwaggerParser.validate(malformed as never)).rejects.toThrow(/schema validation failed/);
  });

  it('every operation has a unique operationId and documents 401', async () => {
    const doc = await fetchDoc(sb);
    const ids: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^\w+$/);
        ids.push(op.operationId);
        if (path !== '/api/reseller/v1/openapi.json') expect(op.responses['401'], `${method} ${path}`).toBeDefined();
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(24 + 7);
  });

  it('declares the three unshown operations where they are served, and the client rules find them', async () => {
    for (const [s, pin, usage, test] of [
      [sb, ['put', '/api/reseller/v1/me/proxy-username'], '/api/reseller/v1/units/{proxyRef}/usage', '/api/reseller/v1/webhook/test'],
      [
        alt,
        ['post', '/api/reseller/v1/account/fixed-login'],
        '/api/reseller/v1/units/{proxyRef}/traffic',
        '/api/reseller/v1/webhook/send-test',
      ],
    ] as const) {
      const doc = await fetchDoc(s);
      // The discovery rules of the CLI contract, applied independently here.
      const ops = Object.entries(doc.paths).flatMap(([path, o]) => Object.entries(o).map(([method, op]) => ({ path, method, op })));
      const pinOp = ops.find(
        (x) =>
          JSON.stringify(x.op.requestBody ?? {}).includes('ProxyUsername') ||
          JSON.stringify(x.op.requestBody ?? {}).includes('proxyUsername'),
      );
      expect([pinOp?.method, pinOp?.path]).toEqual(pin);
      const usageOp = ops.find(
        (x) => x.method === 'get' && /\/units\/\{[^}]+\}\//.test(x.path) && /usage|traffic/i.test(`${x.op.operationId} ${x.path}`),
      );
      expect(usageOp?.path).toBe(usage);
      const testOp = ops.find((x) => x.method === 'post' && x.path.includes('/webhook/') && /test/i.test(`${x.op.operationId} ${x.path}`));
      expect(testOp?.path).toBe(test);
    }
  });

  it('alt paths are really served there, and not at the defaults', async () => {
    const u = (await call(alt, 'POST', '/units', { body: { poolId: 'US-11', period: '3h' } })).body;
    expect((await call(alt, 'GET', `/units/${u.proxyRef}/traffic`)).body.mode).toBe('pool');
    expect((await call(alt, 'GET', `/units/${u.proxyRef}/usage`)).status).toBe(404);
    expect((await call(alt, 'POST', '/account/fixed-login', { body: { proxyUsername: 'altuser' } })).body).toEqual({
      proxyUsername: 'altuser',
    });
    expect((await call(alt, 'PUT', '/me/proxy-username', { body: { proxyUsername: 'x' } })).status).toBe(404);
    expect((await call(alt, 'POST', '/webhook/send-test')).status).toBe(409);
  });
});

describe('openapi.json states every rule the server enforces', () => {
  // The document, dereferenced, and a JSON Schema 2020-12 validator (OpenAPI 3.1's dialect).
  type Op = { parameters?: { name: string; in: string; schema: object }[]; requestBody?: { content: Record<string, { schema: object }> } };
  let ops: Record<string, Op & { path: string; method: string }>;
  let ajv: Ajv2020;
  let own: Sandbox;
  beforeAll(async () => {
    own = await startFastSandbox({ rateLimit: 1000 });
    const doc = (await SwaggerParser.dereference(structuredClone(await fetchDoc(own)) as never)) as unknown as {
      paths: Record<string, Record<string, Op & { operationId: string }>>;
    };
    ops = {};
    for (const [path, byMethod] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(byMethod)) ops[op.operationId] = { ...op, path, method: method.toUpperCase() };
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('ipv4', (v: string) => isIPv4(v));
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addFormat('uri', (v: string) => URL.canParse(v));
    ajv.addFormat('date-time', (v: string) => !Number.isNaN(Date.parse(v)));
  });
  afterAll(() => own.close());

  /** Whether the document accepts this body (or query) for the operation. */
  const docAccepts = (op: string, o: { body?: unknown; query?: Record<string, string> }): boolean => {
    const d = ops[op]!;
    if (o.body !== undefined && !ajv.validate(d.requestBody!.content['application/json']!.schema, o.body)) return false;
    for (const [name, raw] of Object.entries(o.query ?? {})) {
      const p = d.parameters!.find((x) => x.in === 'query' && x.name === name)!;
      const value = (p.schema as { type?: string }).type === 'integer' ? Number(raw) : raw;
      if (!ajv.validate(p.schema, value)) return false;
    }
    return true;
  };
  /** What the server answers to the same request. */
  const send = async (op: string, o: { body?: unknown; query?: Record<string, string> }, ref = 'PRX-1') => {
    const d = ops[op]!;
    const path = d.path.replace('{proxyRef}', ref) + (o.query ? `?${new URLSearchParams(o.query)}` : '');
    return (await call(own, d.method, path, { body: o.body })).status;
  };
  const emoji = (n: number) => '\u{1F600}'.repeat(n);

  it('what the document refuses, the server refuses with 400; what it accepts, the server accepts', async () => {
    const sock = (await buy(own, { poolId: 'US-11', period: '7d' })).body.proxyRef;
    const buyBody = { poolId: 'US-11', period: '3h' };
    const cases: [op: string, req: { body?: unknown; query?: Record<string, string> }, accepted: boolean][] = [
      ['createUnit', { body: { ...buyBody, poolId: '' } }, false],
      ['createUnit', { body: { ...buyBody, protocol: 'http_noauth' } }, false],
      ['createUnit', { body: { ...buyBody, protocol: 'inject' } }, false],
      ['createUnit', { body: { ...buyBody, protocol: 'socks5', allowedIps: ['127.0.0.1'] } }, false],
      ['createUnit', { body: { ...buyBody, allowedIps: ['127.0.0.1'] } }, false],
      ['createUnit', { body: { ...buyBody, description: emoji(501) } }, false],
      ['createUnit', { body: { ...buyBody, credentials: { username: emoji(65), password: 'pw1' } } }, false],
      ['createUnit', { body: { ...buyBody, protocol: 'inject', allowedIps: ['127.0.0.1'], description: emoji(500) } }, true],
      ['swapUnit', { body: { newPoolId: '' } }, false],
      ['changeUnitProtocol', { body: { newProtocol: 'http_noauth' } }, false],
      ['changeUnitProtocol', { body: { newProtocol: 'inject', allowedIps: [] } }, false],
      ['listUnits', { query: { expiringWithinHours: '1000001' } }, false],
      ['listUnits', { query: { expiringWithinHours: '1000000' } }, true],
      ['listUnits', { query: { page: '9007199254740992' } }, false],
      ['listUnits', { query: { page: '9007199254740991' } }, true],
      ['listWebhookDeliveries', { query: { page: '9007199254740992' } }, false],
      ['setWebhook', { body: { url: 'http://hooks.example.com/x' } }, false],
      ['setWebhook', { body: { url: 'http://127.0.0.2/x' } }, false],
      ['setWebhook', { body: { url: 'https://user:pw@hooks.example.com/x' } }, false],
      ['setWebhook', { body: { url: 'ftp://127.0.0.1/x' } }, false],
      ['setWebhook', { body: { url: 'http://localhost:8080/hook' } }, true],
      ['setWebhook', { body: { url: 'HTTPS://hooks.example.com/x?a=1' } }, true],
      ['setProxyUsername', { body: { proxyUsername: emoji(2) } }, false],
      ['setProxyUsername', { body: { proxyUsername: emoji(17) } }, true],
      ['setProxyUsername', { body: { proxyUsername: null } }, true],
      ['sandboxAdvance', { body: { seconds: 1e308 } }, false],
      ['sandboxSetBalance', { body: { balanceUsd: 1e308 } }, false],
    ];
    for (const [op, req, accepted] of cases) {
      const label = `${op} ${JSON.stringify(req).slice(0, 90)}`;
      expect(docAccepts(op, req), `the document, ${label}`).toBe(accepted);
      const status = await send(op, req, sock);
      if (accepted) expect(status, `the server, ${label}`).toBeLessThan(300);
      else expect(status, `the server, ${label}`).toBe(400);
    }
  });

  it('says that a failed create retried with its key replays the failure (it does not free the key)', async () => {
    const key = ops.createUnit!.parameters!.find((p) => p.name === 'Idempotency-Key') as unknown as { description: string };
    expect(key.description).not.toMatch(/a failed attempt frees the key/);
    expect(key.description).toMatch(/503 upstream_unreachable/);
    expect(key.description).toMatch(/Idempotent-Replayed: true/);
    const replayed = await startFastSandbox({ failPool: 'DE-11' });
    try {
      const id = randomUUID();
      const first = await call(replayed, 'POST', '/units', { body: { poolId: 'DE-11', period: '3h' }, headers: { 'idempotency-key': id } });
      const again = await call(replayed, 'POST', '/units', { body: { poolId: 'DE-11', period: '3h' }, headers: { 'idempotency-key': id } });
      expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([503, 503, 'true']);
      expect(again.body.error).toEqual({ ...first.body.error, requestId: again.headers.get('x-request-id') });
    } finally {
      await replayed.close();
    }
  });
});
