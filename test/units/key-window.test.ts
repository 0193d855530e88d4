// A key first used more than 24 hours ago (by this machine's record) is refused before anything is
// sent: the API has forgotten it, so sending it again would buy again instead of replaying.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { UsageError } from '../../src/errors.js';
import { assertKeyFits } from '../../src/units/create-safely.js';

function clientWith(record: unknown): ApiClient {
  const store = new Map<string, unknown>();
  return {
    baseUrl: 'http://127.0.0.1:1',
    records: {
      get: async <T>(key: string) => (key.startsWith('idempotency-request:') ? (record as T) : (store.get(key) as T)),
      set: async (key: string, value: unknown) => {
        store.set(key, value);
      },
    },
  } as unknown as ApiClient;
}

const body = { poolId: 'US-1', period: '7d' };
const request = { poolId: 'US-1', period: '7d', protocol: 'socks5', count: 2 };

describe('the key window', () => {
  it('refuses a key first used 25 hours ago, naming when, with nothing sent', async () => {
    const at = Date.now() - 25 * 3600 * 1000;
    const api = clientWith({ ...request, request: 'whatever', at });
    const err = await assertKeyFits(api, 'k-1', body, 2).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).code).toBe('idempotency_key_expired');
    expect((err as UsageError).message).toContain(`was first used at ${new Date(at).toISOString()}, more than 24 hours ago`);
  });

  it('lets a key used an hour ago through when the request is the same', async () => {
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256')
      .update(JSON.stringify([body.poolId, body.period, 'socks5', 2, null, null]))
      .digest('hex');
    const api = clientWith({ ...request, request: hash, at: Date.now() - 3600 * 1000 });
    await expect(assertKeyFits(api, 'k-1', body, 2)).resolves.toBeUndefined();
  });
});
