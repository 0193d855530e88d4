// The uptime window, for every front door (`proxyctl me uptime`, the agent's get_uptime): checked
// here (day 1-30, ISO dates, from before to, 30-day cap) before any request, then read.
import type { ApiClient, Query } from '../api/client.js';
import { getUptime } from '../api/endpoints.js';
import type { Uptime } from '../api/shapes.js';
import { UsageError } from '../errors.js';
import { parseInteger } from '../globals.js';

const DAY_MS = 86_400_000;
const MAX_WINDOW_MS = 30 * DAY_MS;

export interface UptimeOptions {
  day?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A strict ISO 8601 instant. Date.parse alone would roll 2026-02-30 over into March and read
 * a time without an offset as local time; here impossible dates are refused and a time without
 * an offset is UTC, like a date alone, so the window we check is the window the server gets.
 */
function parseIso(flag: string, value: string): number {
  const m = ISO.exec(value.trim());
  const bad = () => new UsageError(`${flag} must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z (got "${value}")`);
  if (!m) throw bad();
  const [, y, mo, d, h = '00', mi = '00', sec = '00', zone] = m;
  const daysInMonth = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  if (
    Number(mo) < 1 ||
    Number(mo) > 12 ||
    Number(d) < 1 ||
    Number(d) > daysInMonth ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(sec) > 59
  )
    throw bad();
  let text = value.trim().replace(' ', 'T');
  if (m[4] === undefined) text += 'T00:00:00Z';
  else if (zone === undefined) text += 'Z';
  const t = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(t)) throw bad();
  return t;
}

/** The window's flags as given (an agent's arguments in the same words). */
export interface UptimeFlags {
  day?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The window checked (day 1-30, ISO dates, from before to, 30-day cap) before any request. */
export function parseUptimeWindow(flags: UptimeFlags, now: Date): UptimeOptions {
  if (flags.day !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined) throw new UsageError('--day cannot be combined with --from/--to');
    return { day: parseInteger(flags.day, '--day', 1, 30) };
  }
  if (flags.from === undefined && flags.to === undefined) return {};
  const nowMs = now.getTime();
  const to = flags.to !== undefined ? parseIso('--to', flags.to) : nowMs;
  // The API defaults a missing start to 24 hours ago.
  const from = flags.from !== undefined ? parseIso('--from', flags.from) : nowMs - DAY_MS;
  if (from >= Math.min(to, nowMs)) {
    throw new UsageError(
      flags.from === undefined
        ? 'with --to alone the window starts 24 hours ago, which is after --to; give --from too'
        : '--from must be before --to (and before now)',
    );
  }
  if (Math.min(to, nowMs) - from > MAX_WINDOW_MS) throw new UsageError('the uptime window is at most 30 days');
  // Sent normalised (UTC, with Z), so the server reads exactly the window checked above.
  return { from: new Date(from).toISOString(), to: flags.to !== undefined ? new Date(to).toISOString() : undefined };
}

/** The account's uptime and each unit's over the window. */
export function readUptime(api: ApiClient, opts: UptimeOptions): Promise<Uptime> {
  const query: Query = { day: opts.day, from: opts.from, to: opts.to };
  return getUptime(api, query);
}
