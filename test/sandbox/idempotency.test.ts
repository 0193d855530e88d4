// Idempotency-Key on create (spec §4.3, §8): UUID only; a retry inside 24 h replays the original
// status and body with no second debit; an in-flight duplicate gets 409; after 24 h it is new.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { buy, call, errorOf, startFastSandbox } from '../helpers/index.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startFastSandbox({ engineDelayMs: 400, failPool: 'DE-11' });
});
afterAll(() => sb.close());

const balance = async () => (await call(sb, 'GET', '/account')).body.balanceUsd as number;
const unitCount = async () => ((await call(sb, 'GET', '/_sandbox/state')).body.units as unknown[]).length;

describe('Idempotency-Key', () => {
  it('a retry replays the original 201 and body, with no second debit or unit', async () => {
    const key = randomUUID();
    const first = await buy(sb, {}, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const balanceAfter = await balance();
    const units = await unitCount();
    const retry = await buy(sb, {}, { 'idempotency-key': key });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await balance()).toBe(balanceAfter);
    expect(await unitCount()).toBe(units);
  });

  it('concurrent duplicates: one purchase, the others 409 idempotency_in_flight', async () => {
    const key = randomUUID();
    const before = await balance();
    const units = await unitCount();
    const results = await Promise.all([1, 2, 3, 4].map(() => buy(sb, { period: '3h' }, { 'idempotency-key': key })));
    const created = results.filter((r) => r.status === 201);
    const conflicts = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(conflicts).toHaveLength(3);
    for (const c of conflicts) expect(errorOf(c)).toMatchObject({ code: 'idempotency_in_flight', type: 'invalid_request_error' });
    expect(await unitCount()).toBe(units + 1);
    expect(await balance()).toBeCloseTo(before - (await call(sb, 'GET', '/prices')).body.prices['3h'], 2);
    // Once settled, the same key replays.
    const replay = await buy(sb, { period: '3h' }, { 'idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.body.proxyRef).toBe(created[0]!.body.proxyRef);
  });

  it('a key that is not a UUID is 400 idempotency_key_invalid', async () => {
    const r = await buy(sb, {}, { 'idempotency-key': 'order-42' });
    expect(r.status).toBe(400);
    expect(errorOf(r).code).toBe('idempotency_key_invalid');
  });

  it('after 24 hours the same key is a new purchase', async () => {
    const key = randomUUID();
    const first = await buy(sb, { period: '30d' }, { 'idempotency-key': key });
    sb.advance(24 * 3600 + 1);
    const later = await buy(sb, { period: '30d' }, { 'idempotency-key': key });
    expect(later.status).toBe(201);
    expect(later.body.proxyRef).not.toBe(first.body.proxyRef);
  });

  it('a failed purchase frees the key: the retry runs again', async () => {
    const key = randomUUID();
    await call(sb, 'POST', '/_sandbox/balance', { body: { balanceUsd: 0 } });
    const poor = await buy(sb, {}, { 'idempotency-key': key });
    expect(poor.status).toBe(402);
    await call(sb, 'POST', '/_sandbox/balance', { body: { balanceUsd: 100 } });
    expect((await buy(sb, {}, { 'idempotency-key': key })).status).toBe(201);
  });

  it("a refunded 503 is the key's result: a retry replays it without running the engine again", async () => {
    const key = randomUUID();
    const before = await balance();
    const units = await unitCount();
    const failed = await buy(sb, { poolId: 'DE-11' }, { 'idempotency-key': key });
    expect(failed.status).toBe(503);
    expect(errorOf(failed).code).toBe('upstream_unreachable');
    expect(await balance()).toBe(before);
    const replay = await buy(sb, { poolId: 'DE-11' }, { 'idempotency-key': key });
    expect(replay.status).toBe(503);
    // The same error, but requestId names this request (it always equals X-Request-Id).
    expect(errorOf(replay)).toEqual({ ...failed.body.error, requestId: replay.headers.get('x-request-id') });
    expect(replay.headers.get('x-request-id')).not.toBe(failed.headers.get('x-request-id'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance()).toBe(before);
    expect(await unitCount()).toBe(units);
  });
});
