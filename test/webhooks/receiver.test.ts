// The receiver itself, in-process: a secret refresh that hangs must not push the answer past the
// sender's 5-second budget.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startReceiver, type ReceiverRecord } from '../../src/webhooks/receiver.js';

describe('webhook receiver', () => {
  it('answers a mismatched signature with 400 within the budget even when re-reading the secret hangs', async () => {
    let refreshCalls = 0;
    const records: ReceiverRecord[] = [];
    const rx = await startReceiver({
      host: '127.0.0.1',
      port: 0,
      secrets: () => ['whsec_current'],
      refreshSecrets: () => {
        refreshCalls += 1;
        return new Promise<boolean>(() => undefined); // an API that never answers
      },
      onRecord: (r) => records.push(r),
    });
    try {
      const body = JSON.stringify({
        id: 'evt_1',
        event: 'unit.created',
        occurredAt: new Date().toISOString(),
        data: { proxyRef: 'PRX-1' },
      });
      const signature = `sha256=${createHmac('sha256', 'whsec_rotated').update(body).digest('hex')}`;
      // Without the bound the answer never comes; the signal only keeps a regression from
      // stalling the suite (no timing is asserted: these machines are noisy).
      const res = await fetch(rx.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-service-signature': signature,
          'x-service-event': 'unit.created',
          'x-service-delivery': 'd1',
        },
        signal: AbortSignal.timeout(15_000),
      });
      expect(res.status).toBe(400);
      expect(refreshCalls).toBe(1);
      expect(records).toMatchObject([{ type: 'rejected', reason: 'signature mismatch', status: 400 }]);
    } finally {
      await rx.close();
    }
  });
});
