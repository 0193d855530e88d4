// The window a money report covers: --since/--until (dates, times or durations ago), or one
// calendar --month, or by default the last N days. Dates are local, as in `proxyctl spend`: a
// month is local midnight on its first day to local midnight on the next month's first day.
import { UsageError } from '../errors.js';
import { parseWhen } from './when.js';

export { parseWhen } from './when.js';

export interface Window {
  /** Inclusive start. */
  since: Date;
  /** Exclusive end. */
  until: Date;
}

const MONTH = /^(\d{4})-(\d{2})$/;

/** YYYY-MM: from local midnight on the 1st to local midnight on the next month's 1st. */
export function parseMonth(raw: string, flag = '--month'): Window {
  const m = MONTH.exec(raw.trim());
  const month = m ? Number(m[2]) : 0;
  if (!m || month < 1 || month > 12) throw new UsageError(`${flag} must be a month as YYYY-MM, e.g. 2026-11; got "${raw}"`);
  const year = Number(m[1]);
  return { since: new Date(year, month - 1, 1), until: new Date(year, month, 1) };
}

export interface WindowFlags {
  since?: string | undefined;
  until?: string | undefined;
  month?: string | undefined;
}

/**
 * The window the flags name, checked before any request: --month alone, or --since/--until (an
 * open start is `defaultDays` before the end; an open end is now), else the last `defaultDays`.
 */
export function resolveWindow(
  f: WindowFlags,
  now: Date,
  defaultDays = 30,
  names = { since: '--since', until: '--until', month: '--month' },
): Window {
  if (f.month !== undefined) {
    if (f.since !== undefined || f.until !== undefined)
      throw new UsageError(`${names.month} names a whole month: give it alone, or ${names.since}/${names.until} without it`);
    return parseMonth(f.month, names.month);
  }
  const until = f.until === undefined ? now : parseWhen(f.until, names.until, now, true);
  const since = f.since === undefined ? new Date(until.getTime() - defaultDays * 86_400_000) : parseWhen(f.since, names.since, now, false);
  if (since >= until) throw new UsageError(`${names.since} must be before ${names.until}`);
  return { since, until };
}
