import { describe, expect, it } from 'vitest';
import { pruneCache } from '../../src/config/store.js';

describe('config cache pruning', () => {
  it('drops entries stamped more than two days ago and keeps fresh or unstamped ones', () => {
    const now = 1_800_000_000_000;
    const day = 24 * 3600 * 1000;
    const cache = {
      'idempotency-bought:old': { proxyRef: 'PRX-1', at: now - 3 * day },
      'idempotency-bought:new': { proxyRef: 'PRX-2', at: now - day },
      'discovery:old': { v: 1, fetchedAt: now - 2 * day - 1 },
      'discovery:new': { v: 1, fetchedAt: now - 60_000 },
      unstamped: { anything: true },
    };
    expect(Object.keys(pruneCache(cache, now)).sort()).toEqual(['discovery:new', 'idempotency-bought:new', 'unstamped']);
  });
});
