// Component schemas of the OpenAPI description, including the field names the sandbox chose
// where the spec shows none (country/state entries, usage, uptime, affectedUnits, usage.warning kind).
// The enums come from the modules the handlers validate with, so the published description
// cannot drift from what the sandbox accepts.
import { PERIODS } from './catalogue.js';
import { PROTOCOLS } from './validate.js';

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
const num = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
const bool = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra });
const nullable = (t: string, extra: Schema = {}): Schema => ({ type: [t, 'null'], ...extra });
const dateTime = (extra: Schema = {}): Schema => str({ format: 'date-time', ...extra });
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties), extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
export const listOf = (item: Schema, extra: Record<string, Schema> = {}): Schema => obj({ data: { type: 'array', items: item }, ...extra });

export const schemas: Record<string, Schema> = {
  Period: str({ enum: PERIODS, description: '3h, 12h, 24h, 7d (one week), 30d (one month)' }),
  Protocol: str({ enum: [...PROTOCOLS], description: 'http_noauth is HTTP without authentication, restricted to allowedIps' }),
  ProtocolInput: str({ enum: [...PROTOCOLS, 'inject'], description: '`inject` is accepted as an alias of http_noauth' }),
  Prices: obj(
    Object.fromEntries(PERIODS.map((p) => [p, num({ description: `post-discount price of ${p} in USD: exactly what is debited` })])),
  ),
  Credentials: obj({
    username: str({ minLength: 1, maxLength: 64, pattern: '^[^\\s:@]+$' }),
    password: str({ minLength: 1, maxLength: 64, pattern: '^[^\\s:]+$' }),
  }),
  Pool: obj({
    poolId: str({ pattern: '^[A-Z]{2}-\\d+$', examples: ['US-11'] }),
    provider: str(),
    country: str({ description: 'ISO 3166-1 alpha-2' }),
    state: nullable('string', { description: 'state/region slug' }),
    rotation: nullable('string', { description: 'rotation interval, minutes suffix m' }),
    available: bool(),
  }),
  PoolWithPrices: { allOf: [ref('Pool'), obj({ prices: ref('Prices') })] },
  Unit: obj(
    {
      proxyRef: str({ pattern: '^PRX-\\d+$' }),
      poolId: str(),
      provider: str(),
      country: str(),
      state: nullable('string'),
      rotation: nullable('string'),
      ip: str(),
      port: int(),
      protocol: ref('Protocol'),
      credentials: { oneOf: [ref('Credentials'), { type: 'null' }] },
      status: str({ enum: ['ACTIVE', 'EXPIRED', 'RELEASED'] }),
      createdAt: dateTime(),
      expiresAt: dateTime(),
      expiresIn: int({ minimum: 0, description: 'seconds until expiry, recomputed on every read' }),
      lastSwap: nullable('string', { format: 'date-time' }),
      lastExtended: nullable('string', { format: 'date-time' }),
      swapCount: int({ minimum: 0 }),
      allowedIps: { type: 'array', items: str({ format: 'ipv4' }), description: 'present for http_noauth units' },
      description: str(),
      period: ref('Period'),
      proxied: {
        type: 'boolean',
        const: false,
        description:
          'sandbox extension: present (false) only when the unit was sold past --max-proxies, so nothing listens at its ip:port; absent for a unit whose proxy is real (or with --no-proxies)',
      },
    },
    [
      'proxyRef',
      'poolId',
      'provider',
      'country',
      'state',
      'rotation',
      'ip',
      'port',
      'protocol',
      'credentials',
      'status',
      'createdAt',
      'expiresAt',
      'expiresIn',
      'lastSwap',
      'lastExtended',
      'swapCount',
      'description',
    ],
  ),
  Pagination: obj({
    page: int({ minimum: 1 }),
    pageSize: int({ minimum: 1, maximum: 200 }),
    totalItems: int(),
    totalPages: int(),
    hasNext: bool(),
    hasPrev: bool(),
  }),
  DeliveryPagination: obj({ page: int({ minimum: 1 }), pageSize: int({ minimum: 1, maximum: 100 }), total: int(), totalPages: int() }),
  ProviderEntry: obj({ provider: str(), poolCount: int() }),
  CountryEntry: obj({ country: str({ description: 'ISO code, the value later passed as `country`' }), name: str(), poolCount: int() }),
  StateEntry: obj({ country: str(), state: str(), poolCount: int() }),
  Account: obj({ balanceUsd: num(), discountPercent: num(), resellerEnabled: bool() }),
  AccountSnapshot: obj(
    {
      email: str(),
      balanceUsd: num(),
      discountPercent: num(),
      resellerEnabled: bool(),
      units: obj({ active: int(), total: int({ description: 'units not released (active and expired)' }) }),
      prices: ref('Prices'),
      webhook: obj({ url: nullable('string'), enabled: bool() }),
      proxyUsername: nullable('string', { description: 'the fixed proxy username, if pinned' }),
    },
    ['email', 'balanceUsd', 'discountPercent', 'resellerEnabled', 'units', 'prices', 'webhook'],
  ),
  ProxyUsername: obj({ proxyUsername: { oneOf: [str({ minLength: 3, maxLength: 32, pattern: '^[^\\s:@]+$' }), { type: 'null' }] } }),
  UsagePool: obj(
    {
      proxyRef: str(),
      mode: str({ const: 'pool' }),
      period: ref('Period'),
      quotaMb: num(),
      usedMb: num(),
      remainingMb: num(),
      totalMb: num(),
      throttled: bool(),
      measuredAt: dateTime(),
    },
    ['proxyRef', 'mode', 'period', 'quotaMb', 'usedMb', 'remainingMb', 'totalMb'],
  ),
  UsageDaily: obj(
    {
      proxyRef: str(),
      mode: str({ const: 'daily' }),
      period: ref('Period'),
      dailyLimitMb: num(),
      todayMb: num(),
      remainingMb: num({ description: 'left today' }),
      totalMb: num({ description: 'lifetime' }),
      throttled: bool(),
      measuredAt: dateTime(),
    },
    ['proxyRef', 'mode', 'period', 'dailyLimitMb', 'todayMb', 'remainingMb', 'totalMb'],
  ),
  Usage: {
    oneOf: [ref('UsagePool'), ref('UsageDaily')],
    discriminator: { propertyName: 'mode', mapping: { pool: '#/components/schemas/UsagePool', daily: '#/components/schemas/UsageDaily' } },
  },
  SlotCounts: obj({
    uptimePercent: nullable('number', { description: 'up / (up + down) x 100; null when no slot counted' }),
    slotsUp: int(),
    slotsDown: int(),
    slotsExcluded: int({ description: 'probes that could not reach the provider API' }),
  }),
  UptimeUnit: { allOf: [obj({ proxyRef: str(), poolId: str(), from: dateTime(), to: dateTime() }), ref('SlotCounts')] },
  Uptime: {
    allOf: [
      obj({ from: dateTime(), to: dateTime(), slotsPerDay: int({ const: 288 }), units: { type: 'array', items: ref('UptimeUnit') } }),
      ref('SlotCounts'),
    ],
  },
  WebhookConfig: obj({ url: nullable('string', { format: 'uri' }), secret: nullable('string'), enabled: bool() }),
  Delivery: obj(
    {
      id: str({ pattern: '^dlv_' }),
      eventId: str({ description: 'the `id` inside the payload, equal to `id`: the same on every attempt (use it to de-duplicate)' }),
      event: str(),
      url: str(),
      status: str({ enum: ['PENDING', 'DELIVERED', 'FAILED'] }),
      attempts: int(),
      maxAttempts: int({ const: 6 }),
      responseStatus: nullable('integer'),
      lastError: nullable('string'),
      nextAttemptAt: nullable('string', { format: 'date-time' }),
      createdAt: dateTime(),
      deliveredAt: nullable('string', { format: 'date-time' }),
      test: bool(),
    },
    ['id', 'event', 'url', 'status', 'attempts', 'maxAttempts', 'responseStatus', 'lastError', 'nextAttemptAt', 'createdAt', 'deliveredAt'],
  ),
  Error: obj({
    error: obj(
      {
        type: str({
          enum: [
            'authentication_error',
            'permission_error',
            'invalid_request_error',
            'not_found_error',
            'insufficient_balance_error',
            'rate_limit_error',
            'service_error',
          ],
        }),
        code: str({ description: 'stable; branch on HTTP status and code' }),
        message: str({ description: 'for display only' }),
        requestId: str({ description: 'equals the X-Request-Id header' }),
        documentationUrl: str(),
        required: num({ description: 'insufficient_balance: the amount the operation needed' }),
      },
      ['type', 'code', 'message', 'requestId'],
    ),
  }),
  AffectedUnit: obj({ proxyRef: str(), ip: str(), port: int() }, ['proxyRef']),
};

/** `data` of each webhook event (spec §6.4). */
export const eventData: Record<string, Schema> = {
  'unit.created': obj({ proxyRef: str(), poolId: str(), period: ref('Period'), pricePaid: num() }),
  'unit.extended': obj({ proxyRef: str(), period: ref('Period'), pricePaid: num(), expiresAt: dateTime() }),
  'unit.swapped': obj({ proxyRef: str() }),
  'unit.protocol_changed': obj({ proxyRef: str() }),
  'unit.modified': obj({ proxyRef: str() }),
  'unit.released': obj({ proxyRef: str() }),
  'unit.down': obj({ proxyRef: str(), reason: str({ enum: ['quota_exceeded', 'server_unreachable'] }) }),
  'usage.warning': obj({
    proxyRef: str(),
    kind: str({ enum: ['throttle', 'delete'], description: 'throttle at 80%, delete at 75% of the daily cap' }),
    thresholdPct: num(),
    consumedMb: num(),
    limitMb: num(),
  }),
  'usage.throttled': obj({ proxyRef: str(), throttleSpeedMbps: num(), durationHours: num(), consumedMb: num(), limitMb: num() }),
  'server.down': obj({ poolCode: str(), reason: str(), affectedUnits: { type: 'array', items: ref('AffectedUnit') } }),
  'server.ip_changed': obj({ poolCode: str(), newIp: str(), oldIp: str(), affectedUnits: { type: 'array', items: ref('AffectedUnit') } }, [
    'poolCode',
    'newIp',
    'affectedUnits',
  ]),
  'balance.low': obj({ balance: num(), threshold: num() }),
};

export const s = { str, int, num, bool, obj, nullable, dateTime };
