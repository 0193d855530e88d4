// The response validator: each shape accepts what the spec says the operation returns (extra
// fields included) and names the first thing a command would trip over.
import { describe, expect, it } from 'vitest';
import * as shapes from '../../src/api/shapes.js';
import { anything, either, kind, list, nullable, num, object, optional, problemWith, record, shape, str } from '../../src/api/validate.js';

const UNIT = {
  proxyRef: 'PRX-1',
  poolId: 'US-1',
  ip: '203.0.113.1',
  port: 10001,
  credentials: null,
  status: 'ACTIVE',
  expiresAt: '2030-01-01T00:00:00Z',
  extra: { kept: true },
};

describe('checks', () => {
  it('names kinds the way messages read', () => {
    expect([undefined, null, [], {}, 's', 1, true].map(kind)).toEqual([
      'missing',
      'null',
      'a list',
      'an object',
      'a string',
      'a number',
      'a boolean',
    ]);
  });

  it('reports the first problem with its path', () => {
    const s = shape('a thing', object({ a: object({ b: list(object({ c: str })) }) }));
    expect(problemWith(s, { a: { b: [{ c: 'x' }, { c: 1 }] } })).toBe('a.b[1].c is a number, not a string');
    expect(problemWith(s, { a: { b: [{ c: 'x' }, null] } })).toBe('a.b[1] is null, not an object');
    expect(problemWith(s, { a: {} })).toBe('a.b is missing');
    expect(problemWith(s, undefined)).toBe('the body is empty');
    expect(problemWith(s, null)).toBe('the body is null, not an object');
    expect(problemWith(s, [])).toBe('the body is a list, not an object');
  });

  it('optional, nullable, record, either and anything', () => {
    expect(optional(num)(undefined, 'x')).toBeUndefined();
    expect(optional(num)(null, 'x')).toBe('x is null, not a number');
    expect(nullable(num)(null, 'x')).toBeUndefined();
    expect(num(Number.NaN, 'x')).toBe('x is a number, not a finite number');
    expect(record(num)({ a: 1, b: '2' }, 'prices')).toBe('prices.b is a string, not a number');
    expect(either(str, num)(true, 'v')).toBe('v is a boolean, not a string');
    expect(either(str, num)(3, 'v')).toBeUndefined();
    expect(anything(undefined, '')).toBeUndefined();
    expect(list(num)([1, 2, 'x'], '')).toBe('item 2 is a string, not a number');
  });
});

describe('operation shapes', () => {
  it('a unit: proxyRef is required; extra fields pass', () => {
    expect(problemWith(shapes.unit, UNIT)).toBeUndefined();
    expect(problemWith(shapes.unit, { ok: true })).toBe('proxyRef is missing');
    expect(problemWith(shapes.unit, { ...UNIT, port: '10001' })).toBe('port is a string, not a number');
    expect(problemWith(shapes.unit, { ...UNIT, credentials: { username: 'u' } })).toBe('credentials.password is missing');
  });

  it('a page of units: data must be a list of units', () => {
    expect(shapes.unitPage.what).toBe('a page of units');
    expect(problemWith(shapes.unitPage, { data: [UNIT], pagination: { page: 1 } })).toBeUndefined();
    expect(problemWith(shapes.unitPage, { data: [] })).toBeUndefined();
    expect(problemWith(shapes.unitPage, { data: {} })).toBe('data is an object, not a list');
    expect(problemWith(shapes.unitPage, { data: [UNIT, null] })).toBe('data[1] is null, not an object');
    expect(problemWith(shapes.unitPage, { data: [UNIT], pagination: 'none' })).toBe('pagination is a string, not an object');
    expect(problemWith(shapes.deliveryPage, { data: [{ id: 'd1', status: 'FAILED' }] })).toBeUndefined();
    expect(shapes.deliveryPage.what).toBe('a page of webhook deliveries');
  });

  it('account, pools, prices, webhook', () => {
    expect(problemWith(shapes.account, { balanceUsd: 12.5, discountPercent: 0, resellerEnabled: true })).toBeUndefined();
    expect(problemWith(shapes.account, { balanceUsd: '12.5' })).toBe('balanceUsd is a string, not a number');
    expect(problemWith(shapes.poolList, { data: [{ poolId: 'US-1' }], prices: { '7d': 2 } })).toBeUndefined();
    expect(problemWith(shapes.poolList, { data: [{ provider: 'x' }] })).toBe('data[0].poolId is missing');
    expect(problemWith(shapes.pool, { poolId: 'US-1', available: 'yes' })).toBe('available is a string, not a boolean');
    expect(problemWith(shapes.prices, { prices: null })).toBe('prices is null, not an object');
    expect(problemWith(shapes.webhookConfig, { url: null, secret: null, enabled: false })).toBeUndefined();
    expect(problemWith(shapes.webhookConfig, {})).toBe('url is missing');
    expect(problemWith(shapes.extended, { proxyRef: 'PRX-1', extended: true })).toBe('expiresAt is missing');
  });

  it('the answers the spec leaves open accept an empty body only where the command copes with it', () => {
    expect(problemWith(shapes.usernamePin, undefined)).toBeUndefined();
    expect(problemWith(shapes.raw, undefined)).toBeUndefined();
    expect(problemWith(shapes.usage, undefined)).toBe('the body is empty');
    expect(problemWith(shapes.webhookDisabled, null)).toBe('the body is null, not an object');
  });
});
