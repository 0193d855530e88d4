// Account snapshot, balance, uptime and the fixed proxy username (spec §4.1).
import { badRequest, type ApiRequest, type Reply } from '../http.js';
import { unitStatus } from '../units-model.js';
import { countSlots, SLOTS_PER_DAY, uptimePercent, type SlotCounts } from '../usage.js';
import { bodyObject, queryInt, queryValue, validUsername } from '../validate.js';
import type { World } from '../world.js';

export function me(w: World): Reply {
  const now = w.clock.now();
  let active = 0;
  let total = 0;
  for (const u of w.state.units.values()) {
    const s = unitStatus(u, now);
    if (s === 'RELEASED') continue;
    total++;
    if (s === 'ACTIVE') active++;
  }
  const s = w.state;
  return {
    status: 200,
    body: {
      email: w.o.email,
      balanceUsd: s.balanceUsd,
      discountPercent: w.o.discountPercent,
      resellerEnabled: true,
      units: { active, total },
      prices: w.prices,
      webhook: { url: s.webhook.url, enabled: s.webhook.enabled },
      proxyUsername: s.proxyUsername,
    },
  };
}

export function account(w: World): Reply {
  return { status: 200, body: { balanceUsd: w.state.balanceUsd, discountPercent: w.o.discountPercent, resellerEnabled: true } };
}

export function pinUsername(w: World, req: ApiRequest): Reply {
  const b = bodyObject(req.body, true);
  if (!('proxyUsername' in b)) throw badRequest('proxyUsername is required (a string, or null to clear it)');
  const v = b.proxyUsername;
  if (v !== null && !validUsername(v)) throw badRequest('proxyUsername must be 3 to 32 characters without spaces, ":" or "@", or null');
  w.state.proxyUsername = v;
  w.persist();
  return { status: 200, body: { proxyUsername: v } };
}

const DAY_MS = 86_400_000;

function parseInstant(q: URLSearchParams, name: string): number | undefined {
  const raw = queryValue(q, name);
  if (raw === undefined) return undefined;
  const t = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(t))
    throw badRequest(`${name} must be an ISO 8601 date-time, got ${JSON.stringify(raw)}`);
  return t;
}

/**
 * Window rules of §4.1: `day` applies only when neither from nor to is given (otherwise it is
 * ignored, not even validated); `to` in the future is clamped to now; a window longer than the
 * 30-day cap is clamped to the 30 days ending at `to` (the spec says "cap", not "reject").
 */
export function uptime(w: World, req: ApiRequest): Reply {
  const now = w.clock.now();
  const fromQ = parseInstant(req.query, 'from');
  const toQ = parseInstant(req.query, 'to');
  const explicit = fromQ !== undefined || toQ !== undefined;
  const day = explicit ? 1 : queryInt(req.query, 'day', 1, 1, 30);
  const to = Math.min(toQ ?? now, now);
  const from = Math.max(fromQ ?? (explicit ? now - DAY_MS : now - day * DAY_MS), to - 30 * DAY_MS);
  if (from >= to) throw badRequest('from must be earlier than to (and than now)');
  const total: SlotCounts = { slotsUp: 0, slotsDown: 0, slotsExcluded: 0 };
  const units = [];
  for (const u of w.state.units.values()) {
    const start = Math.max(from, u.createdAt);
    const end = Math.min(to, u.expiresAt, u.releasedAt ?? Infinity);
    if (start >= end) continue;
    const c = countSlots(u.poolId, start, end);
    total.slotsUp += c.slotsUp;
    total.slotsDown += c.slotsDown;
    total.slotsExcluded += c.slotsExcluded;
    units.push({
      proxyRef: u.proxyRef,
      poolId: u.poolId,
      from: new Date(start).toISOString(),
      to: new Date(end).toISOString(),
      uptimePercent: uptimePercent(c),
      ...c,
    });
  }
  return {
    status: 200,
    body: {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      slotsPerDay: SLOTS_PER_DAY,
      uptimePercent: uptimePercent(total),
      ...total,
      units,
    },
  };
}
