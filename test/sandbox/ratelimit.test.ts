// Rate limits (spec §8): the account-wide budget and the independent uptime budget, with their
// headers and Retry-After on 429.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { call, errorOf, startFastSandbox } from '../helpers/index.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('rate limits', () => {
  it('the account-wide budget answers 429 rate_limited with Retry-After once exhausted', async () => {
    sb = await startFastSandbox({ rateLimit: 5, rateWindowSeconds: 30 });
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call(sb, 'GET', '/prices');
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      seen.push(Number(r.headers.get('x-ratelimit-remaining')));
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const r = await call(sb, 'GET', '/units');
    expect(r.status).toBe(429);
    expect(errorOf(r)).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(30);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    // The budget is per key: the disabled key still has its own (and gets its 403).
    expect((await call(sb, 'GET', '/prices', { key: sb.disabledApiKey })).status).toBe(403);
  });

  it('the window resets', async () => {
    sb = await startFastSandbox({ rateLimit: 2, rateWindowSeconds: 1 });
    await call(sb, 'GET', '/prices');
    await call(sb, 'GET', '/prices');
    expect((await call(sb, 'GET', '/prices')).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1050));
    expect((await call(sb, 'GET', '/prices')).status).toBe(200);
  });

  it('the uptime budget is independent: exhausting it does not block other requests, and vice versa', async () => {
    sb = await startFastSandbox({ rateLimit: 20, uptimeRateLimit: 3, rateWindowSeconds: 30 });
    for (let i = 0; i < 3; i++) {
      const r = await call(sb, 'GET', '/me/uptime');
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('3');
    }
    const over = await call(sb, 'GET', '/me/uptime');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).not.toBeNull();
    expect((await call(sb, 'GET', '/me')).status).toBe(200);
    for (let i = 0; i < 30; i++) await call(sb, 'GET', '/prices');
    expect((await call(sb, 'GET', '/prices')).status).toBe(429);
    const s2 = await startFastSandbox({ rateLimit: 2, uptimeRateLimit: 3, rateWindowSeconds: 30 });
    try {
      await call(s2, 'GET', '/prices');
      await call(s2, 'GET', '/prices');
      expect((await call(s2, 'GET', '/prices')).status).toBe(429);
      expect((await call(s2, 'GET', '/me/uptime')).status).toBe(200);
    } finally {
      await s2.close();
    }
  });

  it('refused uptime requests do not drain the account-wide budget', async () => {
    // A script polling uptime too fast gets 429s from the uptime budget; those refusals must not
    // eat the account-wide budget, or exhausting one budget would block the other.
    sb = await startFastSandbox({ rateLimit: 5, uptimeRateLimit: 2, rateWindowSeconds: 30 });
    for (let i = 0; i < 2; i++) expect((await call(sb, 'GET', '/me/uptime')).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await call(sb, 'GET', '/me/uptime')).status).toBe(429);
    const me = await call(sb, 'GET', '/me');
    expect(me.status).toBe(200);
    // Only the two accepted uptime requests counted: 5 - 2 - 1 (this one) = 2 left.
    expect(me.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});
