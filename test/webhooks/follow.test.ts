import { describe, expect, it } from 'vitest';
import { DeliveryTracker } from '../../src/webhooks/follow.js';
import { summarizeEvent, type Delivery } from '../../src/webhooks/events.js';

const d = (id: string, over: Partial<Delivery> = {}): Delivery => ({
  id,
  event: 'unit.created',
  status: 'PENDING',
  attempts: 0,
  maxAttempts: 6,
  responseStatus: null,
  nextAttemptAt: null,
  lastError: null,
  createdAt: '2025-12-31T23:59:30.250Z',
  ...over,
});

describe('DeliveryTracker', () => {
  it('reports the first poll as existing, oldest first', () => {
    const t = new DeliveryTracker();
    const changes = t.diff([d('b'), d('a')], true);
    expect(changes.map((c) => [c.type, c.delivery.id])).toEqual([
      ['existing', 'a'],
      ['existing', 'b'],
    ]);
  });

  it('reports new deliveries and changes of the tracked fields only', () => {
    const t = new DeliveryTracker();
    t.diff([d('a')], true);
    expect(t.diff([d('a')])).toEqual([]);
    expect(t.diff([d('a', { url: 'elsewhere' })])).toEqual([]);
    const changes = t.diff([
      d('b'),
      d('a', { status: 'PENDING', attempts: 1, responseStatus: 500, nextAttemptAt: '2026-01-01T00:01:00.000Z' }),
    ]);
    expect(changes.map((c) => c.type)).toEqual(['changed', 'new']);
    expect(changes[0]!.changed).toEqual(['attempts', 'responseStatus', 'nextAttemptAt']);
    expect(changes[0]!.previous).toEqual({ attempts: 0, responseStatus: null, nextAttemptAt: null });
    const delivered = t.diff([d('b'), d('a', { status: 'DELIVERED', attempts: 2, responseStatus: 200, nextAttemptAt: null })]);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.changed).toEqual(['status', 'attempts', 'responseStatus', 'nextAttemptAt']);
    expect(delivered[0]!.previous.status).toBe('PENDING');
  });
});

describe('summarizeEvent', () => {
  it('summarises known events and survives unknown ones', () => {
    expect(summarizeEvent({ event: 'unit.created', data: { proxyRef: 'PRX-1', period: '7d', poolId: 'US-1', pricePaid: 3 } })).toBe(
      'unit PRX-1 created (7d, pool US-1, 3 USD)',
    );
    expect(summarizeEvent({ event: 'unit.created', test: true, data: { proxyRef: 'PRX-1' } })).toBe('[test] unit PRX-1 created');
    expect(summarizeEvent({ event: 'unit.down', data: { proxyRef: 'PRX-2', reason: 'quota_exceeded' } })).toBe(
      'unit PRX-2 down (quota_exceeded)',
    );
    expect(summarizeEvent({ event: 'server.down', data: { poolCode: 'DE-1', reason: 'maintenance', affectedUnits: [{}, {}] } })).toBe(
      'server DE-1 down (maintenance), 2 unit(s) affected',
    );
    expect(summarizeEvent({ event: 'future.event', data: { a: 1, b: 2 } })).toBe('data: a, b');
    expect(summarizeEvent({})).toBe('no data');
  });
});

describe('describeChange (webhook log --follow, human lines)', () => {
  it('says what changed: status transition, attempt, response, next attempt and error', async () => {
    const { describeChange } = await import('../../src/commands/webhook/log.js');
    const { plainPaint } = await import('../../src/output/index.js');
    const now = new Date('2026-01-01T00:00:00.000Z');
    const t = new DeliveryTracker();
    t.diff([d('dlv_1')], true);
    const [c] = t.diff([
      d('dlv_1', { attempts: 1, responseStatus: 500, nextAttemptAt: '2026-01-01T00:01:00.000Z', lastError: 'HTTP 500' }),
    ]);
    expect(describeChange(c!, now, plainPaint)).toBe(
      '2025-12-31T23:59:30Z  dlv_1  unit.created  PENDING  attempt 1/6  HTTP 500  next 2026-01-01T00:01:00.000Z (in 1m)  error: HTTP 500',
    );
    const [f] = t.diff([d('dlv_1', { status: 'FAILED', attempts: 6, responseStatus: 500 })]);
    expect(describeChange(f!, now, plainPaint)).toBe('2025-12-31T23:59:30Z  dlv_1  unit.created  PENDING → FAILED  attempt 6/6  HTTP 500');
    const [n] = t.diff([d('dlv_2'), d('dlv_1', { status: 'FAILED', attempts: 6, responseStatus: 500 })]);
    expect(describeChange(n!, now, plainPaint)).toBe('2025-12-31T23:59:30Z  dlv_2  unit.created  PENDING  attempt 0/6  new');
    const [ok] = t.diff([d('dlv_2', { status: 'DELIVERED', attempts: 1, responseStatus: 204, deliveredAt: '2026-01-01T00:00:02.900Z' })]);
    expect(describeChange(ok!, now, plainPaint)).toBe(
      '2025-12-31T23:59:30Z  dlv_2  unit.created  PENDING → DELIVERED  attempt 1/6  HTTP 204  delivered 2026-01-01T00:00:02Z',
    );
  });
});
