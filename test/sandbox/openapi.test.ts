// The served OpenAPI description: valid OpenAPI 3.1 by a third-party validator, every served
// operation described with an operationId, and --alt-paths moves the three unshown operations.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { call, startFastSandbox } from '../helpers/index.js';

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
