// The sandbox-only control endpoint under /_sandbox/ (main key required): fire operator events,
// move the clock, inspect the whole state, inject faults, set the balance.
import { isIPv4 } from 'node:net';
import { ApiFailure, badRequest, type ApiRequest, type Reply } from '../http.js';
import { findUnit, unitStatus, unitView } from '../units-model.js';
import { DAILY_LIMIT_MB, usageRecord } from '../usage.js';
import { bodyObject } from '../validate.js';
import { publicDelivery } from '../webhooks.js';
import { LATEST_MS } from '../clock.js';
import { MAX_BALANCE_USD, type World } from '../world.js';
import { isLoopbackIp } from '../proxies/addresses.js';
import { checkTriggerBody } from '../trigger-fields.js';

export const EVENTS = [
  'unit.created',
  'unit.extended',
  'unit.swapped',
  'unit.protocol_changed',
  'unit.modified',
  'unit.released',
  'unit.down',
  'usage.warning',
  'usage.throttled',
  'server.down',
  'server.ip_changed',
  'balance.low',
] as const;

/** Sandbox-only operator actions: they restore what unit.down/server.down took and deliver no webhook. */
export const RESTORE_EVENTS = ['unit.up', 'server.up'] as const;

const num = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);

function limitOf(w: World, ref: string): number {
  const u = usageRecord(findUnit(w, ref), w.clock.now());
  return (u.quotaMb as number | undefined) ?? DAILY_LIMIT_MB;
}

function affectedUnits(w: World, poolId: string) {
  const now = w.clock.now();
  return [...w.state.units.values()]
    .filter((u) => u.poolId === poolId && unitStatus(u, now) === 'ACTIVE')
    .map((u) => ({ proxyRef: u.proxyRef, ip: u.ip, port: u.port }));
}

/** server.ip_changed's new address: with proxies, where they can listen (127.0.0.0/8). */
function newPoolIp(w: World, given: unknown): string {
  const hub = w.proxies;
  if (!hub) {
    if (given === undefined) return `203.0.113.${1 + Math.floor(Math.random() * 254)}`;
    if (typeof given !== 'string' || !isIPv4(given)) throw badRequest('newIp must be an IPv4 address');
    return given;
  }
  if (!hub.perPool) {
    if (given !== undefined && given !== '127.0.0.1')
      throw badRequest(
        'this sandbox puts every proxy on 127.0.0.1 (the OS binds no other loopback address): newIp must be 127.0.0.1 or absent',
      );
    return '127.0.0.1';
  }
  if (given === undefined) return `127.203.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  if (typeof given !== 'string' || !isLoopbackIp(given) || given === '127.0.0.1')
    throw badRequest("newIp must be an IPv4 address in 127.0.0.0/8 other than 127.0.0.1: the units' proxies listen there");
  return given;
}

/** What an operator event does to the proxies: down, up, moved. */
async function applyToProxies(w: World, event: string, b: Record<string, unknown>): Promise<void> {
  const ref = typeof b.proxyRef === 'string' ? b.proxyRef : undefined;
  const poolId = typeof b.poolId === 'string' ? b.poolId : undefined;
  if (event === 'unit.down' || event === 'unit.up') {
    if (!ref) throw badRequest(`${event} needs proxyRef`);
    const u = findUnit(w, ref);
    u.down = event === 'unit.down';
    await w.proxies?.sync(u);
  } else if (event === 'server.down' || event === 'server.up' || event === 'server.ip_changed') {
    if (!poolId || !w.poolById.has(poolId)) throw new ApiFailure(404, 'pool_not_found', `${event} needs an existing poolId`);
    const down = new Set(w.state.poolsDown ?? []);
    if (event === 'server.down') down.add(poolId);
    if (event === 'server.up') down.delete(poolId);
    w.state.poolsDown = [...down];
    await w.proxies?.syncPool(poolId, event === 'server.ip_changed' && !w.proxies.perPool);
  }
}

/**
 * The `data` of an event, from a trigger body already checked against its event's fields
 * (`checkTriggerBody`): given fields override the defaults.
 */
function eventData(w: World, event: string, b: Record<string, unknown>): Record<string, unknown> {
  const { event: _e, ...extra } = b;
  const ref = typeof b.proxyRef === 'string' ? b.proxyRef : undefined;
  const iso = (ms: number) => new Date(ms).toISOString();
  const needRef = () => {
    if (!ref) throw badRequest(`${event} needs proxyRef`);
    findUnit(w, ref);
    return ref;
  };
  const needPool = () => {
    const p = typeof b.poolId === 'string' ? w.poolById.get(b.poolId) : undefined;
    if (!p) throw new ApiFailure(404, 'pool_not_found', `${event} needs an existing poolId`);
    return p;
  };
  switch (event) {
    case 'unit.down': {
      const reason = b.reason ?? 'server_unreachable';
      if (reason !== 'quota_exceeded' && reason !== 'server_unreachable')
        throw badRequest('reason must be quota_exceeded or server_unreachable');
      return { proxyRef: needRef(), reason };
    }
    case 'usage.warning': {
      const kind = b.kind ?? 'throttle';
      if (kind !== 'throttle' && kind !== 'delete') throw badRequest('kind must be throttle or delete');
      const limitMb = num(b.limitMb, limitOf(w, needRef()));
      const thresholdPct = num(b.thresholdPct, kind === 'throttle' ? 80 : 75);
      return { proxyRef: ref, kind, thresholdPct, consumedMb: num(b.consumedMb, Math.round(limitMb * thresholdPct) / 100), limitMb };
    }
    case 'usage.throttled': {
      const limitMb = num(b.limitMb, limitOf(w, needRef()));
      return {
        proxyRef: ref,
        throttleSpeedMbps: num(b.throttleSpeedMbps, 1),
        durationHours: num(b.durationHours, 24),
        consumedMb: num(b.consumedMb, limitMb),
        limitMb,
      };
    }
    case 'server.down': {
      const p = needPool();
      return {
        poolCode: p.poolId,
        reason: typeof b.reason === 'string' ? b.reason : 'maintenance',
        affectedUnits: affectedUnits(w, p.poolId),
      };
    }
    case 'server.ip_changed': {
      const p = needPool();
      const oldIp = p.host;
      const newIp = newPoolIp(w, b.newIp);
      p.host = newIp;
      w.state.poolHosts[p.poolId] = newIp;
      for (const u of w.state.units.values()) if (u.poolId === p.poolId) u.ip = newIp;
      return { poolCode: p.poolId, newIp, oldIp, affectedUnits: affectedUnits(w, p.poolId) };
    }
    case 'balance.low':
      return { balance: w.state.balanceUsd, threshold: w.o.balanceLowThreshold, ...extra };
    case 'unit.created': {
      const u = findUnit(w, needRef());
      return { proxyRef: u.proxyRef, poolId: u.poolId, period: u.period, pricePaid: u.pricePaid, ...extra };
    }
    case 'unit.extended': {
      const u = findUnit(w, needRef());
      return { proxyRef: u.proxyRef, period: u.period, pricePaid: w.prices[u.period], expiresAt: iso(u.expiresAt), ...extra };
    }
    default:
      return { proxyRef: needRef(), ...extra };
  }
}

export async function trigger(w: World, req: ApiRequest): Promise<Reply> {
  const b = bodyObject(req.body, true);
  const event = b.event;
  if (typeof event !== 'string' || !(EVENTS as readonly string[]).concat(RESTORE_EVENTS).includes(event))
    throw badRequest(`event must be one of ${[...EVENTS, ...RESTORE_EVENTS].join(', ')}`);
  checkTriggerBody(event, b);
  if ((RESTORE_EVENTS as readonly string[]).includes(event)) {
    await applyToProxies(w, event, b);
    w.persist();
    const data = event === 'unit.up' ? { proxyRef: b.proxyRef } : { poolCode: b.poolId, affectedUnits: affectedUnits(w, String(b.poolId)) };
    return { status: 202, body: { event, data, deliveries: [] } };
  }
  const data = eventData(w, event, b);
  await applyToProxies(w, event, b);
  // The proxies listen at their new address before the event names their ports.
  if (event === 'server.ip_changed') data.affectedUnits = affectedUnits(w, String(data.poolCode));
  const d = w.emit(event, data);
  w.persist();
  return { status: 202, body: { event, data, deliveries: d ? [publicDelivery(d)] : [] } };
}

export async function advance(w: World, req: ApiRequest): Promise<Reply> {
  const seconds = bodyObject(req.body, true).seconds;
  const max = w.clock.maxAdvanceSeconds();
  // Checked before anything moves: a refused advance changes nothing.
  if (typeof seconds !== 'number' || !(seconds >= 0 && seconds <= max))
    throw badRequest(`seconds must be a number from 0 to ${max} (the sandbox clock stops at ${new Date(LATEST_MS).toISOString()})`);
  w.clock.advance(seconds);
  w.deliverer.recheck();
  // Units that expired stop listening before the answer.
  await w.proxies?.sweep();
  // Persist the new time too: a restart must not bring expired units back to life.
  w.persist();
  return { status: 200, body: { now: w.clock.nowIso() } };
}

export function setBalance(w: World, req: ApiRequest): Reply {
  const v = bodyObject(req.body, true).balanceUsd;
  if (typeof v !== 'number' || !(v >= 0 && v <= MAX_BALANCE_USD))
    throw badRequest(`balanceUsd must be a number from 0 to ${MAX_BALANCE_USD} (USD, kept to the cent)`);
  w.state.balanceUsd = 0;
  w.credit(v);
  w.persist();
  return { status: 200, body: { balanceUsd: w.state.balanceUsd } };
}

export function dumpState(w: World): Reply {
  const now = w.clock.now();
  const s = w.state;
  return {
    status: 200,
    body: {
      now: new Date(now).toISOString(),
      balanceUsd: s.balanceUsd,
      discountPercent: w.o.discountPercent,
      proxyUsername: s.proxyUsername,
      units: [...s.units.values()].map((u) => ({
        ...unitView(u, now),
        pricePaid: u.pricePaid,
        releasedAt: u.releasedAt === null ? null : new Date(u.releasedAt).toISOString(),
      })),
      deliveries: [...s.deliveries].sort((a, b) => b.seq - a.seq).map((d) => ({ ...publicDelivery(d), payload: d.payload })),
      idempotency: s.idempotency.size,
      inFlightPurchases: w.inFlightPurchases,
      webhook: { ...s.webhook },
    },
  };
}
