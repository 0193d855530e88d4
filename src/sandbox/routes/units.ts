// Unit list, detail, create, modify and release (spec §4.3).
import { ApiFailure, badRequest, errorBody, type ApiRequest, type Reply } from '../http.js';
import {
  availablePool,
  expiryAfter,
  findUnit,
  generatedCredentials,
  placement,
  purchase,
  UNIT_STATUSES,
  unitStatus,
  unitView,
} from '../units-model.js';
import type { IdempotencyRecord, UnitRecord } from '../state.js';
import {
  bodyObject,
  EXPIRING_WITHIN_HOURS_MAX,
  PAGE_MAX,
  parseAllowedIps,
  parseCredentials,
  parseDescription,
  parseProtocol,
  queryBool,
  queryEnum,
  queryInt,
  queryValue,
  requirePeriod,
  UUID_RE,
} from '../validate.js';
import type { World } from '../world.js';

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export function listUnits(w: World, req: ApiRequest): Reply {
  const q = req.query;
  const status = queryEnum(q, 'status', UNIT_STATUSES);
  const includeExpired = queryBool(q, 'includeExpired');
  const poolId = queryValue(q, 'poolId');
  const within = q.has('expiringWithinHours') ? queryInt(q, 'expiringWithinHours', 1, 1, EXPIRING_WITHIN_HOURS_MAX) : undefined;
  const page = queryInt(q, 'page', 1, 1, PAGE_MAX);
  const pageSize = queryInt(q, 'pageSize', 50, 1, 200);
  const now = w.clock.now();
  const rows: UnitRecord[] = [];
  for (const u of w.state.units.values()) {
    const s = unitStatus(u, now);
    if (status ? s !== status : s === 'RELEASED' || (s === 'EXPIRED' && !includeExpired)) continue;
    if (poolId !== undefined && u.poolId !== poolId) continue;
    if (within !== undefined && (s !== 'ACTIVE' || u.expiresAt - now > within * 3600_000)) continue;
    rows.push(u);
  }
  rows.sort((a, b) => (a.poolId < b.poolId ? -1 : a.poolId > b.poolId ? 1 : a.seq - b.seq));
  const totalPages = Math.ceil(rows.length / pageSize);
  return {
    status: 200,
    body: {
      data: rows.slice((page - 1) * pageSize, page * pageSize).map((u) => unitView(u, now)),
      pagination: { page, pageSize, totalItems: rows.length, totalPages, hasNext: page < totalPages, hasPrev: page > 1 },
    },
  };
}

export function getUnit(w: World, req: ApiRequest): Reply {
  return { status: 200, body: unitView(findUnit(w, req.params.proxyRef), w.clock.now()) };
}

/** POST /units with Idempotency-Key: a retry inside 24 h replays the first answer, no second debit. */
export async function createUnit(w: World, req: ApiRequest): Promise<Reply> {
  const rawKey = req.headers['idempotency-key'];
  const key = Array.isArray(rawKey) ? rawKey[0] : rawKey;
  if (key === undefined) return provision(w, req);
  if (!UUID_RE.test(key)) throw new ApiFailure(400, 'idempotency_key_invalid', 'Idempotency-Key must be a UUID (e.g. from uuidgen)');
  const slot = `${String(req.headers['x-api-key'])}\u0000${key.toLowerCase()}`;
  const now = w.clock.now();
  const prior = w.state.idempotency.get(slot);
  if (prior && now - prior.createdAt < IDEMPOTENCY_WINDOW_MS) {
    if (prior.inFlight)
      throw new ApiFailure(409, 'idempotency_in_flight', 'a request with this Idempotency-Key is still being processed; retry shortly');
    // A replayed error keeps its content, but its requestId names this request (§7: unique per
    // request, and always equal to X-Request-Id).
    const body = replayedBody(prior.body, req.requestId);
    return { status: prior.status!, body, headers: { 'idempotent-replayed': 'true' } };
  }
  for (const [k, r] of w.state.idempotency) if (now - r.createdAt >= IDEMPOTENCY_WINDOW_MS) w.state.idempotency.delete(k);
  const record: IdempotencyRecord = { createdAt: now, inFlight: true };
  w.state.idempotency.set(slot, record);
  try {
    // The record is completed in the same state write as the purchase: a crash cannot keep
    // one without the other.
    return await provision(w, req, (reply) => Object.assign(record, { inFlight: false, status: reply.status, body: reply.body }));
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 503) {
      // The engine ran (debit, failure, refund): that execution is the key's result, and a retry
      // inside 24 h replays it, as the spec says of every retry. Clients use a new key to try again.
      const reply = { status: 503, body: errorBody(e, req.requestId) };
      Object.assign(record, { inFlight: false, ...reply });
      w.persist();
      return reply;
    }
    // Rejected before anything ran (validation, 402, unknown pool): nothing happened, so the key
    // stays free and a retry after fixing the cause (a top-up, say) buys normally.
    w.state.idempotency.delete(slot);
    throw e;
  }
}

function replayedBody(body: unknown, requestId: string): unknown {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (!error || typeof error !== 'object') return body;
  return { ...(body as object), error: { ...error, requestId } };
}

async function provision(w: World, req: ApiRequest, commit?: (reply: Reply) => void): Promise<Reply> {
  const b = bodyObject(req.body, true);
  if (typeof b.poolId !== 'string' || b.poolId === '') throw badRequest('poolId is required (a poolId from GET /pools)');
  const period = requirePeriod(b.period);
  const protocol = b.protocol === undefined || b.protocol === null ? 'socks5' : parseProtocol(b.protocol, 'protocol');
  const custom = parseCredentials(b.credentials);
  let allowedIps: string[] = [];
  if (protocol === 'http_noauth')
    allowedIps = parseAllowedIps(
      b.allowedIps,
      'allowedIps',
      1,
      1,
      'exactly one IPv4 address for http_noauth at creation (add more later with PATCH)',
    );
  else if (b.allowedIps !== undefined && b.allowedIps !== null)
    throw new ApiFailure(400, 'allowed_ips_invalid', 'allowedIps applies only to the http_noauth protocol');
  const pool = availablePool(w, b.poolId, 'pool_not_available');
  const description = b.description === undefined || b.description === null ? '' : parseDescription(b.description);
  const price = (pool.prices ?? w.prices)[period];
  const u = await purchase(w, price, pool.poolId, async () => {
    const now = w.clock.now();
    const expiresAt = expiryAfter(now, period);
    const seq = w.state.nextUnitSeq++;
    const unit: UnitRecord = {
      proxyRef: `PRX-${seq}`,
      seq,
      ...placement(pool, seq, 0),
      protocol,
      credentials: protocol === 'http_noauth' ? null : (custom ?? generatedCredentials(w)),
      savedCredentials: null,
      allowedIps,
      description,
      period,
      pricePaid: price,
      createdAt: now,
      expiresAt,
      lastSwap: null,
      lastExtended: null,
      swapCount: 0,
      releasedAt: null,
    };
    w.state.units.set(unit.proxyRef, unit);
    // Its proxy listens before the answer names its port.
    await w.proxies?.sync(unit, { freshPort: true });
    return unit;
  });
  w.emit('unit.created', { proxyRef: u.proxyRef, poolId: u.poolId, period, pricePaid: price });
  const reply = { status: 201, body: unitView(u, u.createdAt) };
  commit?.(reply);
  w.persist();
  return reply;
}

export function modifyUnit(w: World, req: ApiRequest): Reply {
  const u = findUnit(w, req.params.proxyRef);
  // Every field is optional (§4.3), so an empty or absent body is valid: it asks for nothing.
  const b = bodyObject(req.body, false);
  // Everything is validated before anything is applied: a 400 leaves the unit as it was.
  const change: Partial<Pick<UnitRecord, 'credentials' | 'description' | 'allowedIps'>> = {};
  if (b.credentials !== undefined && b.credentials !== null) {
    if (u.protocol === 'http_noauth') throw badRequest('credentials do not apply to an http_noauth unit; change its protocol first');
    change.credentials = parseCredentials(b.credentials)!;
  }
  if (b.description !== undefined) change.description = parseDescription(b.description);
  if (b.allowedIps !== undefined) {
    if (u.protocol !== 'http_noauth') throw new ApiFailure(400, 'allowed_ips_invalid', 'allowedIps applies only to http_noauth units');
    change.allowedIps = parseAllowedIps(b.allowedIps, 'allowedIps', 1, 100, '1 to 100 IPv4 addresses (the replacement list)');
  }
  // `modified` says whether the request modified the unit, and unit.modified fires exactly when
  // it did (spec §6.4: PATCH on a unit emits unit.modified). A request that names fields is
  // applied, also when the unit already has those values (a repeated modify is not a failure);
  // one that names none has nothing to modify: `modified: false`, and no event.
  const modified = Object.keys(change).length > 0;
  if (modified) {
    Object.assign(u, change);
    w.emit('unit.modified', { proxyRef: u.proxyRef });
    w.persist();
  }
  return { status: 200, body: { proxyRef: u.proxyRef, modified } };
}

export async function releaseUnit(w: World, req: ApiRequest): Promise<Reply> {
  const u = findUnit(w, req.params.proxyRef);
  u.releasedAt = w.clock.now();
  await w.proxies?.sync(u);
  w.emit('unit.released', { proxyRef: u.proxyRef });
  w.persist();
  return { status: 200, body: { proxyRef: u.proxyRef, removed: true } };
}
