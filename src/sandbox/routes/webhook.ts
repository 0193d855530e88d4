// Webhook configuration, the delivery log and the test event (spec §4.4, §6).
import { publicPool } from '../catalogue.js';
import { ApiFailure, badRequest, type ApiRequest, type Reply } from '../http.js';
import { randomHex } from '../random.js';
import type { DeliveryStatus } from '../state.js';
import { bodyObject, PAGE_MAX, queryEnum, queryInt, queryValue, WEBHOOK_URL_PATTERNS } from '../validate.js';
import { publicDelivery } from '../webhooks.js';
import type { World } from '../world.js';

const HTTPS_URL = new RegExp(WEBHOOK_URL_PATTERNS.https);
const LOOPBACK_HTTP_URL = new RegExp(WEBHOOK_URL_PATTERNS.loopbackHttp);

/** HTTPS anywhere; plain HTTP only to the local machine (a sandbox-only relaxation): the rule openapi.json states. */
export function checkWebhookUrl(raw: unknown): string {
  if (typeof raw !== 'string')
    throw new ApiFailure(400, 'webhook_url_invalid', 'url must be an https:// URL, or null to disable the webhook');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ApiFailure(400, 'webhook_url_invalid', `url ${JSON.stringify(raw)} is not a valid URL`);
  }
  if (u.username || u.password) throw new ApiFailure(400, 'webhook_url_invalid', 'url must not carry credentials');
  if (!HTTPS_URL.test(raw) && !LOOPBACK_HTTP_URL.test(raw)) {
    throw new ApiFailure(
      400,
      'webhook_url_invalid',
      'url must be an https:// URL (plain http:// is accepted only for 127.0.0.1, localhost or [::1] in the sandbox)',
    );
  }
  return u.toString();
}

export function getWebhook(w: World): Reply {
  return { status: 200, body: { ...w.state.webhook } };
}

export function setWebhook(w: World, req: ApiRequest): Reply {
  const b = bodyObject(req.body, true);
  if (!('url' in b)) throw badRequest('url is required (an https:// URL, or null to disable)');
  if (b.url === null) return disableWebhook(w);
  const url = checkWebhookUrl(b.url);
  // Every PATCH issues a fresh secret: it is shown here and by GET.
  w.state.webhook = { url, secret: `whsec_${randomHex(24)}`, enabled: true };
  w.persist();
  return { status: 200, body: { ...w.state.webhook } };
}

export function disableWebhook(w: World): Reply {
  w.state.webhook = { url: null, secret: null, enabled: false };
  w.persist();
  return { status: 200, body: { url: null, secret: null, enabled: false } };
}

export function deleteWebhook(w: World): Reply {
  disableWebhook(w);
  return { status: 200, body: { enabled: false } };
}

const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['PENDING', 'DELIVERED', 'FAILED'];

export function listDeliveries(w: World, req: ApiRequest): Reply {
  const q = req.query;
  const page = queryInt(q, 'page', 1, 1, PAGE_MAX);
  const pageSize = queryInt(q, 'pageSize', 25, 1, 100);
  const status = queryEnum(q, 'status', DELIVERY_STATUSES);
  const event = queryValue(q, 'event');
  const rows = w.state.deliveries
    .filter((d) => (!status || d.status === status) && (!event || d.event === event))
    .sort((a, b) => b.seq - a.seq);
  return {
    status: 200,
    body: {
      data: rows.slice((page - 1) * pageSize, page * pageSize).map(publicDelivery),
      pagination: { page, pageSize, total: rows.length, totalPages: Math.ceil(rows.length / pageSize) },
    },
  };
}

export function testWebhook(w: World): Reply {
  const pool = w.pools.find((p) => p.available) ?? w.pools[0]!;
  const d = w.emit('unit.created', { proxyRef: 'PRX-0', poolId: publicPool(pool).poolId, period: '24h', pricePaid: w.prices['24h'] }, true);
  if (!d) throw new ApiFailure(409, 'webhook_not_configured', 'no webhook is configured; set one with PATCH /webhook first');
  w.persist();
  return { status: 202, body: publicDelivery(d) };
}
