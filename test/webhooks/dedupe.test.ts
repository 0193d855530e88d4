// What `webhook listen` does once per delivery: the key that stays the same across attempts, and
// --exec's choice of jobs (a delivery answered twice runs its command once).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryKey, HandledOnce } from '../../src/webhooks/dedupe.js';
import { jobsFromDeliveries } from '../../src/webhooks/exec.js';
import type { ReceivedDelivery } from '../../src/webhooks/receiver.js';

/** An answered delivery as the receiver hands it on: this attempt of the payload `body`. */
function answered(body: string, attemptId: string): [ReceivedDelivery, Buffer] {
  const payload = JSON.parse(body) as ReceivedDelivery['payload'] & { id?: string };
  const deliveryId = typeof payload?.id === 'string' ? payload.id : undefined;
  const record: ReceivedDelivery = {
    type: 'delivery',
    receivedAt: '2026-01-01T00:00:00.000Z',
    event: payload?.event,
    deliveryId,
    eventId: deliveryId,
    attemptId,
    timestamp: undefined,
    secretIndex: 0,
    seen: 1,
    redelivery: false,
    test: payload?.test === true,
    status: 200,
    payload,
  };
  return [record, Buffer.from(body)];
}

const DOWN = '{"id":"dlv_1","event":"unit.down","data":{"proxyRef":"PRX-1"}}';
const CREATED = '{"id":"dlv_2","event":"unit.created","data":{"proxyRef":"PRX-2"},"test":true}';
const NO_ID = '{"event":"unit.released","occurredAt":"2026-01-01T00:00:00Z","data":{"proxyRef":"PRX-3"}}';

describe('deliveryKey', () => {
  it("is the payload's id when it has one, whatever the bytes", () => {
    expect(deliveryKey('dlv_1', Buffer.from(DOWN))).toBe('dlv_1');
    expect(deliveryKey('dlv_1', Buffer.from(`${DOWN}\n`))).toBe('dlv_1');
  });

  it('is the SHA-256 of the exact bytes without an id: one byte more is another delivery', () => {
    const hex = createHash('sha256').update(NO_ID).digest('hex');
    expect(deliveryKey(undefined, Buffer.from(NO_ID))).toBe(`sha256:${hex}`);
    expect(deliveryKey(undefined, Buffer.from(`${NO_ID} `))).not.toBe(`sha256:${hex}`);
  });
});

describe('HandledOnce', () => {
  it('claims a key once, and forgets the oldest claimed past its size (claiming again does not renew it)', () => {
    const once = new HandledOnce(2);
    expect([once.claim('a'), once.claim('a'), once.claim('b'), once.claim('a')]).toEqual([true, false, true, false]);
    expect(once.claim('c')).toBe(true); // 'a' is forgotten
    expect([once.claim('b'), once.claim('c'), once.claim('a')]).toEqual([false, false, true]);
  });
});

describe('jobsFromDeliveries (--exec)', () => {
  it('one job per delivery, however many attempts are answered, numbered in order of arrival', () => {
    const jobFor = jobsFromDeliveries([]);
    const jobs = [
      jobFor(...answered(DOWN, 'att-1')),
      jobFor(...answered(DOWN, 'att-2')),
      jobFor(...answered(CREATED, 'att-3')),
      jobFor(...answered(NO_ID, 'att-4')),
      jobFor(...answered(NO_ID, 'att-5')),
    ];
    expect(jobs.map((j) => j && { ...j, body: j.body.toString() })).toEqual([
      { seq: 1, event: 'unit.down', proxyRef: 'PRX-1', deliveryId: 'dlv_1', attemptId: 'att-1', test: false, body: DOWN },
      undefined,
      { seq: 2, event: 'unit.created', proxyRef: 'PRX-2', deliveryId: 'dlv_2', attemptId: 'att-3', test: true, body: CREATED },
      { seq: 3, event: 'unit.released', proxyRef: 'PRX-3', deliveryId: undefined, attemptId: 'att-4', test: false, body: NO_ID },
      undefined,
    ]);
  });

  it('--on: other events become no job and take no number', () => {
    const jobFor = jobsFromDeliveries(['unit.created']);
    expect(jobFor(...answered(DOWN, 'att-1'))).toBeUndefined();
    expect(jobFor(...answered(CREATED, 'att-2'))).toMatchObject({ seq: 1, deliveryId: 'dlv_2' });
    expect(jobFor(...answered(CREATED, 'att-3'))).toBeUndefined();
  });

  it('a delivery forgotten past the bound runs again', () => {
    const jobFor = jobsFromDeliveries([], 1);
    expect(jobFor(...answered(DOWN, 'att-1'))).toMatchObject({ seq: 1 });
    expect(jobFor(...answered(CREATED, 'att-2'))).toMatchObject({ seq: 2 });
    expect(jobFor(...answered(DOWN, 'att-3'))).toMatchObject({ seq: 3, attemptId: 'att-3' });
  });
});
