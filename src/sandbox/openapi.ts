// The OpenAPI 3.1 description served at /api/reseller/v1/openapi.json, generated from the same
// route table the server uses, so every served operation is described and nothing else is.
import { API_PREFIX, API_VERSION } from './http.js';
import { DOCS, ERROR_TEXT, FAULTS_SCHEMA } from './openapi-operations.js';
import { eventData, ref, s, schemas } from './openapi-schemas.js';
import { apiRoutes, controlRoutes } from './routes/index.js';

type Schema = Record<string, unknown>;

const COMMON_HEADERS = ['X-Request-Id', 'X-API-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const headerRefs = (extra: string[] = []) =>
  Object.fromEntries([...COMMON_HEADERS, ...extra].map((h) => [h, { $ref: `#/components/headers/${h}` }]));

/**
 * Answers any operation can get before its handler runs: 405 (with Allow) for a method the path
 * does not serve, 408 and 431 from the HTTP parser, and 413 for a body over 1 MiB (a GET's body
 * is never read).
 */
const transportErrors = (method: string) => [405, 408, 431, ...(method === 'GET' ? [] : [413])];

function operation(op: string, params: string[], control: boolean, method: string): Schema {
  const d = DOCS[op];
  if (!d) throw new Error(`openapi: no documentation for operation ${op}`);
  const parameters = [
    ...params.map((p) => ({ name: p, in: 'path', required: true, schema: s.str() })),
    ...(d.query ?? []).map(([name, schema, description]) => ({ name, in: 'query', required: false, schema, description })),
    ...(d.headers ?? []).map(([name, schema, description]) => ({ name, in: 'header', required: false, schema, description })),
  ];
  const errors = [...new Set([...(d.errors ?? []), 401, ...(control ? [] : [403, 429]), ...transportErrors(method)])].sort();
  return {
    operationId: op,
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    tags: [d.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(d.body ? { requestBody: { required: !d.bodyOptional, content: { 'application/json': { schema: d.body } } } } : {}),
    responses: {
      [String(d.ok[0])]: { description: 'Success', headers: headerRefs(d.okHeaders), content: { 'application/json': { schema: d.ok[1] } } },
      ...Object.fromEntries(errors.map((st) => [String(st), { $ref: `#/components/responses/E${st}` }])),
    },
  };
}

/** The fault routes, served by the pipeline itself (server.ts) beside the control routes. */
const FAULT_ROUTES = [
  { method: 'GET', path: '/faults', op: 'sandboxGetFaults' },
  { method: 'POST', path: '/faults', op: 'sandboxSetFaults' },
  { method: 'DELETE', path: '/faults', op: 'sandboxClearFaults' },
];

/** What the sandbox tells clients about its proxies, in `info["x-proxyctl-sandbox"]`. */
export interface SandboxProxyInfo {
  proxies: boolean;
  perPoolAddresses: boolean;
}

const PROXY_TEXT =
  'Sandbox proxies: every ACTIVE unit listens as a real proxy on loopback at its ip:port (unless the sandbox runs with --no-proxies: then units carry documentation addresses 198.51.100.x where nothing listens). ' +
  'Addresses (info.x-proxyctl-sandbox.addresses): "per-pool" gives each pool its own 127.x.y.z (198.51.X.Y becomes 127.51.X.Y) and outgoing connections leave from it, so a target sees a distinct exit address per pool; "single" (an OS that binds 127.0.0.1 only) puts every unit on 127.0.0.1. ' +
  'socks5: SOCKS5 CONNECT with username/password (RFC 1928/1929), wrong credentials get auth status 0x01 and the connection closes. http: CONNECT and absolute-form requests with Basic Proxy-Authorization, 407 with Proxy-Authenticate when missing or wrong. http_noauth: admits only source addresses in allowedIps, 403 otherwise. ' +
  'Proxies connect to loopback destinations only (127.0.0.0/8, ::1, localhost); others get SOCKS reply 0x02 or HTTP 403. ' +
  'A unit released, expired, downed (unit.down, server.down until unit.up/server.up) has its listening socket closed: connections are refused. A pool under server.down shows available: false and create and swap to it are refused (404) until server.up. Swap (also of a downed unit: it ends its unit.down), extend of an expired unit, server.ip_changed and a restart with a state file listen again (a restart tries the same port and takes a new one, shown by the API, if it is taken). ' +
  'Units sold past the --max-proxies limit carry the extension field proxied: false (absent otherwise) and nothing listens at their port. ' +
  'Bytes carried (both directions) are the unit usage (usedMb/todayMb/totalMb, 3 decimals) instead of generated figures. ' +
  'GET|POST /echo (no key) answers { sourceAddress, sourcePort, method, url, headers } as seen, without Authorization, Proxy-Authorization, X-API-Key and Cookie.';

export function buildOpenApi(
  altPaths: boolean,
  px: SandboxProxyInfo = { proxies: false, perPoolAddresses: false },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (prefix: string, routes: { method: string; path: string; op: string }[], control: boolean) => {
    for (const r of routes) {
      const full = prefix + r.path;
      const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      paths[full] ??= {};
      paths[full][r.method.toLowerCase()] = operation(r.op, params, control, r.method);
    }
  };
  add(API_PREFIX, apiRoutes(altPaths), false);
  add('/_sandbox', [...controlRoutes(), ...FAULT_ROUTES], true);
  paths[`${API_PREFIX}/openapi.json`] = {
    get: {
      operationId: 'getOpenApi',
      tags: ['meta'],
      summary: 'This description (served without an API key so clients can discover operations)',
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: s.obj({}, []) } } },
        '405': { $ref: '#/components/responses/E405' },
        '408': { $ref: '#/components/responses/E408' },
        '431': { $ref: '#/components/responses/E431' },
      },
    },
  };
  const webhooks = Object.fromEntries(
    Object.entries(eventData).map(([event, data]) => [
      event,
      {
        post: {
          operationId: `event_${event.replace('.', '_')}`,
          summary: `${event} delivery`,
          parameters: [
            { name: 'X-Service-Event', in: 'header', required: true, schema: s.str({ const: event }) },
            { name: 'X-Service-Delivery', in: 'header', required: true, schema: s.str(), description: 'unique per attempt' },
            { name: 'X-Service-Timestamp', in: 'header', required: true, schema: s.str(), description: 'unix seconds' },
            {
              name: 'X-Service-Signature',
              in: 'header',
              required: true,
              schema: s.str({ pattern: '^sha256=[0-9a-f]{64}$' }),
              description: 'sha256= + hex HMAC-SHA256 of the raw body keyed with the secret',
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: s.obj(
                  {
                    id: s.str({ description: "the delivery's id (its `id` in the delivery log), the same on every attempt" }),
                    event: s.str({ const: event }),
                    occurredAt: s.dateTime(),
                    data,
                    test: s.bool(),
                  },
                  ['id', 'event', 'occurredAt', 'data'],
                ),
              },
            },
          },
          responses: {
            '200': {
              description: 'Any 2xx within 5 seconds acknowledges; anything else is retried after 1m, 5m, 30m, 2h, 6h (6 attempts)',
            },
          },
        },
      },
    ]),
  );
  const headerDoc = (description: string, schema: Schema) => ({ description, schema });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reseller Proxy API (sandbox)',
      version: API_VERSION,
      description:
        'Local sandbox of the Reseller Proxy API. Paths are absolute from the base URL. Every path under /api/reseller/v1 needs X-API-Key except this description. ' +
        'A request with a body must send Content-Type: application/json (400 invalid_content_type otherwise). ' +
        'Webhook X-Service-Timestamp is the real send time (unix seconds), also under a scaled or advanced sandbox clock; the payload occurredAt is sandbox time. ' +
        'Fixed-window rate budgets: account-wide (default 120/min per key) and uptime (default 10/min, independent). ' +
        'The /_sandbox/ operations (tag sandbox) exist only in the sandbox and need the main key. ' +
        (altPaths
          ? 'This sandbox serves the three operations whose paths the spec does not show at alternative paths.'
          : 'The three operations whose paths the spec does not show are at the client contract defaults.') +
        ' ' +
        PROXY_TEXT,
      // Marks a base URL as a sandbox and says where its echo target is (relative to the origin).
      'x-proxyctl-sandbox': {
        echo: '/echo',
        proxies: px.proxies,
        addresses: !px.proxies ? 'documentation' : px.perPoolAddresses ? 'per-pool' : 'single',
      },
    },
    servers: [{ url: '/', description: 'the server that serves this document' }],
    security: [{ ApiKey: [] }],
    tags: ['account', 'catalogue', 'units', 'webhooks', 'sandbox', 'meta'].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { ...schemas, Faults: FAULTS_SCHEMA },
      headers: {
        'X-Request-Id': headerDoc('unique per request; equals error.requestId', s.str()),
        'X-API-Version': headerDoc('API version', s.str()),
        'X-RateLimit-Limit': headerDoc('ceiling of the current window', s.int()),
        'X-RateLimit-Remaining': headerDoc('requests left in the window', s.int()),
        'X-RateLimit-Reset': headerDoc('unix seconds when the window resets', s.int()),
        'Retry-After': headerDoc('seconds to wait (429 only)', s.int()),
        Allow: headerDoc('the methods this path serves (405 only)', s.str()),
        'Idempotent-Replayed': headerDoc(
          'true on an answer replayed for an Idempotency-Key that already ran (a 201, or a refunded 503 upstream_unreachable)',
          s.str({ const: 'true' }),
        ),
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_TEXT).map(([st, description]) => [
          `E${st}`,
          {
            description,
            headers: headerRefs(st === '429' ? ['Retry-After'] : st === '405' ? ['Allow'] : []),
            content: { 'application/json': { schema: ref('Error') } },
          },
        ]),
      ),
    },
  };
}
