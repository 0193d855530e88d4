// Extend, swap, change-protocol and usage of one unit (spec §4.3).
import { ApiFailure, badRequest, unitNotFound, type ApiRequest, type Reply } from '../http.js';
import { availablePool, expiryAfter, findUnit, generatedCredentials, placement, purchase } from '../units-model.js';
import { usageRecord } from '../usage.js';
import { bodyObject, parseAllowedIps, parseCredentials, parseProtocol, requirePeriod } from '../validate.js';
import type { World } from '../world.js';

const iso = (ms: number) => new Date(ms).toISOString();

export async function extendUnit(w: World, req: ApiRequest): Promise<Reply> {
  const u = findUnit(w, req.params.proxyRef);
  const period = requirePeriod(bodyObject(req.body, true).period);
  const price = w.prices[period];
  await purchase(w, price, u.poolId, async () => {
    // Released while the engine ran: nothing to extend, so the debit goes back.
    if (u.releasedAt !== null) throw unitNotFound(u.proxyRef);
    const now = w.clock.now();
    // An expired unit is renewed from now; an active one gains exactly one period.
    const expiresAt = expiryAfter(Math.max(u.expiresAt, now), period);
    Object.assign(u, { expiresAt, lastExtended: now, period, pricePaid: Math.round((u.pricePaid + price) * 100) / 100 });
    // An expired unit's proxy listens again (on its old port when free).
    await w.proxies?.sync(u);
  });
  w.emit('unit.extended', { proxyRef: u.proxyRef, period, pricePaid: price, expiresAt: iso(u.expiresAt) });
  w.persist();
  return { status: 200, body: { proxyRef: u.proxyRef, expiresAt: iso(u.expiresAt), extended: true } };
}

export async function swapUnit(w: World, req: ApiRequest): Promise<Reply> {
  const b = bodyObject(req.body, true);
  const u = findUnit(w, req.params.proxyRef, { activeOnly: true });
  if (typeof b.newPoolId !== 'string' || b.newPoolId === '') throw badRequest('newPoolId is required (a poolId from GET /pools)');
  const pool = availablePool(w, b.newPoolId, 'pool_not_found');
  u.swapCount += 1;
  Object.assign(u, placement(pool, u.seq, u.swapCount), { lastSwap: w.clock.now() });
  // A unit.down was the unit on its old server: on the new one it works (the self-healing recipe
  // swaps a downed unit), so the address the answer names listens.
  u.down = false;
  // The proxy moves: the old port stops answering, the new one (in the answer) listens.
  await w.proxies?.sync(u, { freshPort: true });
  w.emit('unit.swapped', { proxyRef: u.proxyRef });
  w.persist();
  const { proxyRef, poolId, provider, ip, port, protocol, credentials } = u;
  return { status: 200, body: { proxyRef, poolId, provider, ip, port, protocol, credentials, expiresAt: iso(u.expiresAt) } };
}

export function changeProtocol(w: World, req: ApiRequest): Reply {
  const b = bodyObject(req.body, true);
  const u = findUnit(w, req.params.proxyRef, { activeOnly: true });
  if (b.newProtocol === undefined || b.newProtocol === null)
    throw new ApiFailure(400, 'protocol_invalid', 'newProtocol is required: socks5, http or http_noauth');
  const next = parseProtocol(b.newProtocol, 'newProtocol');
  if (next === u.protocol) throw new ApiFailure(409, 'protocol_unchanged', `unit ${u.proxyRef} already uses ${next}`);
  if (next === 'http_noauth') {
    u.allowedIps = parseAllowedIps(
      b.allowedIps,
      'allowedIps',
      1,
      1,
      'exactly one client IPv4 address for http_noauth (add more later with PATCH)',
    );
    if (u.credentials) u.savedCredentials = u.credentials;
    u.credentials = null;
  } else {
    u.credentials = parseCredentials(b.credentials) ?? u.credentials ?? u.savedCredentials ?? generatedCredentials(w);
    u.allowedIps = [];
  }
  u.protocol = next;
  w.emit('unit.protocol_changed', { proxyRef: u.proxyRef });
  w.persist();
  const { proxyRef, poolId, provider, ip, port, protocol, allowedIps, credentials } = u;
  return { status: 200, body: { proxyRef, poolId, provider, ip, port, protocol, allowedIps, credentials, expiresAt: iso(u.expiresAt) } };
}

export function unitUsage(w: World, req: ApiRequest): Reply {
  const u = findUnit(w, req.params.proxyRef);
  w.proxies?.flush(u);
  return { status: 200, body: usageRecord(u, w.clock.now(), w.o.proxies) };
}
