// What each operation of the API and of /_sandbox/ takes and returns, keyed by operationId (the
// `op` of the route table); openapi.ts turns it into the OpenAPI description.
import { LATEST_MS } from './clock.js';
import { eventData, listOf, ref, s } from './openapi-schemas.js';
import { faultOps } from './faults.js';
import { RESTORE_EVENTS } from './routes/control.js';
import { apiRoutes } from './routes/index.js';
import { triggerBodySchema } from './trigger-fields.js';
import { DESCRIPTION_MAX, EXPIRING_WITHIN_HOURS_MAX, PAGE_MAX, WEBHOOK_URL_PATTERNS } from './validate.js';
import { MAX_BALANCE_USD } from './world.js';

type Schema = Record<string, unknown>;

export interface OpDoc {
  summary: string;
  tag: string;
  description?: string;
  query?: [name: string, schema: Schema, description: string][];
  body?: Schema;
  /** The body may be absent (then it is `{}`). */
  bodyOptional?: boolean;
  ok: [status: number, schema: Schema];
  /** Headers of the success answer beyond the common ones (components.headers). */
  okHeaders?: string[];
  errors?: number[];
  headers?: [name: string, schema: Schema, description: string][];
}

/**
 * allowedIps is required exactly for the no-auth protocol (http_noauth, or its alias inject) named
 * by `field`; with `refusedOtherwise` a request naming another protocol must not send it.
 */
function allowedIpsExactlyForNoAuth(field: string, refusedOtherwise: boolean): Schema {
  return {
    if: { properties: { [field]: { enum: ['http_noauth', 'inject'] } }, required: [field] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: { required: ['allowedIps'] },
    ...(refusedOtherwise ? { else: { not: { required: ['allowedIps'] } } } : {}),
  };
}

const FAULTS_SCHEMA_REF = ref('Faults');

const q = (name: string, schema: Schema, description: string): [string, Schema, string] => [name, schema, description];

export const DOCS: Record<string, OpDoc> = {
  getAccountSnapshot: { tag: 'account', summary: 'Account snapshot', ok: [200, ref('AccountSnapshot')] },
  getAccountBalance: { tag: 'account', summary: 'Balance, discount and reseller mode', ok: [200, ref('Account')] },
  getUptime: {
    tag: 'account',
    summary: 'Uptime of the account and per unit (probe every 5 minutes, 288 slots a day)',
    description:
      'Own budget: 10 requests per window, independent of the account-wide one (an uptime request also counts against the account-wide budget but is only refused by its own).',
    query: [
      q('day', s.int({ minimum: 1, maximum: 30, default: 1 }), 'last N days; ignored (not validated) when from or to is given'),
      q('from', s.dateTime(), 'default: 24 hours ago; a window over 30 days is clamped to the 30 days ending at to (not refused)'),
      q('to', s.dateTime(), 'clamped to now; from must be earlier than to (400 otherwise)'),
    ],
    ok: [200, ref('Uptime')],
    errors: [400],
  },
  setProxyUsername: {
    tag: 'account',
    summary: 'Pin a fixed proxy username for units created afterwards (null clears it)',
    body: ref('ProxyUsername'),
    ok: [200, ref('ProxyUsername')],
    errors: [400],
  },
  getPrices: { tag: 'catalogue', summary: 'Price schedule (post-discount)', ok: [200, s.obj({ prices: ref('Prices') })] },
  listPools: {
    tag: 'catalogue',
    summary: 'Pools, sorted by poolId (Pro tier)',
    query: ['provider', 'country', 'state', 'rotation'].map((n) => q(n, s.str({ minLength: 1 }), `exact ${n}, case-insensitive`)),
    ok: [200, listOf(ref('PoolWithPrices'), { prices: ref('Prices') })],
  },
  getPool: { tag: 'catalogue', summary: 'One pool with its prices', ok: [200, ref('PoolWithPrices')], errors: [404] },
  listProviders: { tag: 'catalogue', summary: 'Providers with pool counts', ok: [200, listOf(ref('ProviderEntry'))] },
  listCountries: { tag: 'catalogue', summary: 'Countries with pool counts', ok: [200, listOf(ref('CountryEntry'))] },
  listStates: {
    tag: 'catalogue',
    summary: 'States with pool counts',
    query: [q('country', s.str({ minLength: 1 }), 'ISO country code')],
    ok: [200, listOf(ref('StateEntry'))],
  },
  listUnits: {
    tag: 'units',
    summary: 'Units, sorted by poolId; expired units hidden unless includeExpired=true',
    query: [
      q('includeExpired', s.bool(), 'true adds expired units'),
      q('status', s.str({ enum: ['ACTIVE', 'EXPIRED', 'RELEASED'] }), 'exact filter'),
      q('poolId', s.str({ minLength: 1 }), 'only units of this pool'),
      q('expiringWithinHours', s.int({ minimum: 1, maximum: EXPIRING_WITHIN_HOURS_MAX }), 'only units expiring within N hours'),
      q('page', s.int({ minimum: 1, maximum: PAGE_MAX, default: 1 }), '1-based page'),
      q('pageSize', s.int({ minimum: 1, maximum: 200, default: 50 }), 'items per page'),
    ],
    ok: [200, listOf(ref('Unit'), { pagination: ref('Pagination') })],
    errors: [400],
  },
  createUnit: {
    tag: 'units',
    summary: 'Buy a unit: the price is debited first and refunded automatically if provisioning fails',
    headers: [
      [
        'Idempotency-Key',
        s.str({ format: 'uuid' }),
        "Per API key, honoured 24 hours. A request with a key that already ran inside that window does not run again: it gets the key's result replayed, with the header Idempotent-Replayed: true. That result is the 201 (the same unit, no second debit), or a 503 upstream_unreachable: the engine ran and failed and the debit was refunded, and every retry with the key gets that 503 again (same status and body; error.requestId names the retry itself and equals its X-Request-Id). Use a new key to try the purchase again. A request refused before anything ran (400, 402, 404) stores nothing: the key stays free, so a retry after fixing the cause (a top-up) buys. A duplicate still in flight gets 409 idempotency_in_flight. After 24 hours the key is new.",
      ],
    ],
    body: s.obj(
      {
        poolId: s.str({ minLength: 1 }),
        period: ref('Period'),
        protocol: ref('ProtocolInput'),
        credentials: ref('Credentials'),
        allowedIps: {
          type: 'array',
          items: s.str({ format: 'ipv4' }),
          minItems: 1,
          maxItems: 1,
          description: 'required for http_noauth (or its alias inject), refused for the other protocols: exactly one IPv4',
        },
        description: s.str({ maxLength: DESCRIPTION_MAX }),
      },
      ['poolId', 'period'],
      { allOf: [allowedIpsExactlyForNoAuth('protocol', true)] },
    ),
    ok: [201, ref('Unit')],
    okHeaders: ['Idempotent-Replayed'],
    errors: [400, 402, 404, 409, 503],
  },
  getUnit: { tag: 'units', summary: 'One unit', ok: [200, ref('Unit')], errors: [404] },
  modifyUnit: {
    tag: 'units',
    summary: 'Modify credentials, description or the allowedIps list (replacement)',
    description:
      'Every field is optional. A body naming none of them (empty or absent) modifies nothing: modified: false, no event. A body naming fields is applied, also when the unit already has those values: modified: true, and unit.modified fires exactly then. A 400 applies none of the fields. allowedIps applies only to http_noauth units, credentials only to the others (400 otherwise).',
    body: s.obj(
      {
        credentials: ref('Credentials'),
        description: s.str({ maxLength: DESCRIPTION_MAX }),
        allowedIps: { type: 'array', items: s.str({ format: 'ipv4' }), minItems: 1, maxItems: 100 },
      },
      [],
    ),
    bodyOptional: true,
    ok: [200, s.obj({ proxyRef: s.str(), modified: s.bool() })],
    errors: [400, 404],
  },
  releaseUnit: {
    tag: 'units',
    summary: 'Release (delete) a unit; no refund',
    ok: [200, s.obj({ proxyRef: s.str(), removed: s.bool() })],
    errors: [404],
  },
  extendUnit: {
    tag: 'units',
    summary: 'Extend by one period (debited; refunded if provisioning fails)',
    body: s.obj({ period: ref('Period') }),
    ok: [200, s.obj({ proxyRef: s.str(), expiresAt: s.dateTime(), extended: s.bool() })],
    errors: [400, 402, 404, 503],
  },
  swapUnit: {
    tag: 'units',
    summary: 'Move a unit to another pool; remaining time kept, free',
    body: s.obj({ newPoolId: s.str({ minLength: 1 }) }),
    ok: [
      200,
      s.obj({
        proxyRef: s.str(),
        poolId: s.str(),
        provider: s.str(),
        ip: s.str(),
        port: s.int(),
        protocol: ref('Protocol'),
        credentials: { oneOf: [ref('Credentials'), { type: 'null' }] },
        expiresAt: s.dateTime(),
      }),
    ],
    errors: [400, 404],
  },
  changeUnitProtocol: {
    tag: 'units',
    summary: 'Change protocol; proxyRef and remaining time kept; must differ (409 protocol_unchanged)',
    body: s.obj(
      {
        newProtocol: ref('ProtocolInput'),
        credentials: ref('Credentials'),
        allowedIps: {
          type: 'array',
          items: s.str({ format: 'ipv4' }),
          minItems: 1,
          maxItems: 1,
          description: 'required when newProtocol is http_noauth (or inject): exactly one IPv4; ignored otherwise',
        },
      },
      ['newProtocol'],
      { allOf: [allowedIpsExactlyForNoAuth('newProtocol', false)] },
    ),
    ok: [
      200,
      s.obj(
        {
          proxyRef: s.str(),
          poolId: s.str(),
          provider: s.str(),
          ip: s.str(),
          port: s.int(),
          protocol: ref('Protocol'),
          allowedIps: { type: 'array', items: s.str() },
          credentials: { oneOf: [ref('Credentials'), { type: 'null' }] },
          expiresAt: s.dateTime(),
        },
        ['proxyRef', 'poolId', 'provider', 'ip', 'port', 'protocol', 'allowedIps', 'expiresAt'],
      ),
    ],
    errors: [400, 404, 409],
  },
  getUnitUsage: {
    tag: 'units',
    summary: 'Traffic usage of a unit (pool mode for 3h/12h/24h, daily mode for 7d/30d)',
    ok: [200, ref('Usage')],
    errors: [404],
  },
  getWebhook: { tag: 'webhooks', summary: 'Webhook configuration (with its secret)', ok: [200, ref('WebhookConfig')] },
  setWebhook: {
    tag: 'webhooks',
    summary:
      'Set the webhook URL (https; plain http only to 127.0.0.1, localhost or [::1] in the sandbox); a new secret each time; null disables',
    body: s.obj({
      url: {
        oneOf: [
          s.str({ format: 'uri', pattern: WEBHOOK_URL_PATTERNS.https, description: 'an https:// URL (no user:password@)' }),
          s.str({
            format: 'uri',
            pattern: WEBHOOK_URL_PATTERNS.loopbackHttp,
            description: 'plain http:// only to 127.0.0.1, localhost or [::1]',
          }),
          { type: 'null', description: 'disables the webhook' },
        ],
      },
    }),
    ok: [200, ref('WebhookConfig')],
    errors: [400],
  },
  deleteWebhook: { tag: 'webhooks', summary: 'Remove the webhook URL and secret', ok: [200, s.obj({ enabled: s.bool({ const: false }) })] },
  listWebhookDeliveries: {
    tag: 'webhooks',
    summary: 'Delivery log, newest first',
    query: [
      q('page', s.int({ minimum: 1, maximum: PAGE_MAX, default: 1 }), '1-based page'),
      q('pageSize', s.int({ minimum: 1, maximum: 100, default: 25 }), 'items per page'),
      q('status', s.str({ enum: ['PENDING', 'DELIVERED', 'FAILED'] }), 'exact filter'),
      q('event', s.str({ minLength: 1 }), 'event name, e.g. unit.created'),
    ],
    ok: [200, listOf(ref('Delivery'), { pagination: ref('DeliveryPagination') })],
    errors: [400],
  },
  testWebhook: {
    tag: 'webhooks',
    summary: 'Send a test event (unit.created with test: true) through the real delivery pipeline',
    ok: [202, ref('Delivery')],
    errors: [409],
  },
  sandboxTrigger: {
    tag: 'sandbox',
    summary: 'Fire an event (operator events included) through the delivery pipeline',
    description:
      'Each event takes its own fields (one body schema per event, no other field): a field of another event, a null or a value of the wrong type is refused with 400. unit.up and server.up are sandbox actions that deliver nothing.',
    body: triggerBodySchema(),
    ok: [
      202,
      {
        oneOf: Object.entries({
          ...eventData,
          'unit.up': s.obj({ proxyRef: s.str() }),
          'server.up': s.obj({ poolCode: s.str(), affectedUnits: { type: 'array', items: ref('AffectedUnit') } }),
        }).map(([event, data]) =>
          s.obj({
            event: s.str({ const: event }),
            data: {
              ...data,
              description: `the data ${(RESTORE_EVENTS as readonly string[]).includes(event) ? 'of the action' : 'as delivered'}`,
            },
            deliveries: {
              type: 'array',
              items: ref('Delivery'),
              description: 'empty when no webhook is enabled, and for unit.up/server.up',
            },
          }),
        ),
      },
    ],
    errors: [400, 404],
  },
  sandboxAdvance: {
    tag: 'sandbox',
    summary: 'Move the sandbox clock forward; due webhook retries fire',
    description:
      'The clock ends at 9999-12-31T23:59:59.999Z: seconds beyond what is left until then are refused with 400 and nothing moves. Near the end, a create or extend whose unit would expire after it is refused with 400 (its debit refunded).',
    body: s.obj({
      seconds: s.num({
        minimum: 0,
        maximum: Math.floor(LATEST_MS / 1000),
        description: 'at most the seconds left until 9999-12-31T23:59:59.999Z',
      }),
    }),
    ok: [200, s.obj({ now: s.dateTime() })],
    errors: [400],
  },
  sandboxState: {
    tag: 'sandbox',
    summary: 'Whole server state for test assertions (units incl. released/expired, deliveries with payloads)',
    ok: [
      200,
      s.obj(
        {
          now: s.dateTime({ description: 'sandbox time; it stops at 9999-12-31T23:59:59.999Z' }),
          balanceUsd: s.num(),
          discountPercent: s.num(),
          proxyUsername: s.nullable('string'),
          units: {
            type: 'array',
            items: {
              allOf: [
                ref('Unit'),
                s.obj({
                  pricePaid: s.num({ description: 'what its purchase debited' }),
                  releasedAt: s.nullable('string', { format: 'date-time' }),
                }),
              ],
            },
            description: 'every unit, released and expired included',
          },
          deliveries: {
            type: 'array',
            items: { allOf: [ref('Delivery'), s.obj({ payload: s.str({ description: 'the raw JSON body every attempt sends' }) })] },
            description: 'newest first',
          },
          idempotency: s.int({ minimum: 0, description: 'idempotency keys remembered' }),
          inFlightPurchases: s.int({ minimum: 0, description: 'purchases between their debit and their outcome' }),
          webhook: ref('WebhookConfig'),
        },
        undefined,
        { additionalProperties: false },
      ),
    ],
  },
  sandboxGetFaults: { tag: 'sandbox', summary: 'Faults armed', ok: [200, FAULTS_SCHEMA_REF] },
  sandboxSetFaults: {
    tag: 'sandbox',
    summary:
      'Arm faults: failNext answers the next N matching API requests with an error before doing anything; dropAfterCommit commits the next N matching operations and closes the socket without answering',
    description:
      'An op that names no API operation is refused with 400 (it would never fire). Merged into what is armed; null disarms one.',
    body: FAULTS_SCHEMA_REF,
    ok: [200, FAULTS_SCHEMA_REF],
    errors: [400],
  },
  sandboxClearFaults: {
    tag: 'sandbox',
    summary: 'Disarm all faults',
    ok: [200, s.obj({}, [], { additionalProperties: false, description: 'nothing is armed' })],
  },
  sandboxSetBalance: {
    tag: 'sandbox',
    summary: 'Set the balance (a top-up)',
    body: s.obj({ balanceUsd: s.num({ minimum: 0, maximum: MAX_BALANCE_USD }) }),
    ok: [200, s.obj({ balanceUsd: s.num() })],
    errors: [400],
  },
};

/** The names a fault's op may take (the same for --alt-paths: only paths move). */
const FAULT_OPS = faultOps(apiRoutes(false).map((r) => r.op));

const faultOp = s.str({
  enum: FAULT_OPS,
  description: 'operationId or short name (create, extend, …); absent or null = any API operation',
});

export const FAULTS_SCHEMA = s.obj(
  {
    failNext: {
      oneOf: [
        s.obj(
          {
            op: { oneOf: [faultOp, { type: 'null' }] },
            status: s.int({ minimum: 400, maximum: 599 }),
            count: s.int({ minimum: 0, default: 1 }),
            code: s.str({ description: 'the error code (default by status: rate_limited, internal_error, …, injected_fault)' }),
          },
          ['status'],
          { additionalProperties: false },
        ),
        { type: 'null', description: 'disarms it (in a POST)' },
      ],
    },
    dropAfterCommit: {
      oneOf: [
        s.obj({ op: { oneOf: [faultOp, { type: 'null' }] }, count: s.int({ minimum: 0, default: 1 }) }, [], {
          additionalProperties: false,
        }),
        { type: 'null', description: 'disarms it (in a POST)' },
      ],
    },
  },
  [],
  { additionalProperties: false },
);

export const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request (invalid_json, validation_error, protocol_invalid, allowed_ips_invalid, webhook_url_invalid, idempotency_key_invalid, invalid_content_type; malformed_request for bytes that are not HTTP/1.1, which also gets X-Request-Id)',
  401: 'Missing or invalid API key (invalid_api_key)',
  402: 'Balance below the price (insufficient_balance; `required` carries the amount)',
  403: 'Reseller mode disabled (reseller_disabled)',
  404: 'Not found (unit_not_found, pool_not_found, pool_not_available, not_found)',
  405: 'Method not allowed on this path (method_not_allowed); the Allow header lists the methods it serves',
  408: 'The request was not received in time (request_timeout); the connection is closed',
  409: 'Conflict (protocol_unchanged, idempotency_in_flight, webhook_not_configured)',
  413: 'The request body is larger than 1 MiB (payload_too_large); nothing ran',
  429: 'Rate budget exhausted (rate_limited); wait Retry-After seconds',
  431: 'The request headers are too large (headers_too_large); the connection is closed',
  503: 'Upstream provisioning failed; the debit was refunded (upstream_unreachable)',
};
