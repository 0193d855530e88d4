// The ends of a spending window as people give them (`spend --since/--until`, the agent's
// get_spend since/until): checked here, before the ledger is read.
import { UsageError } from '../errors.js';
import { durationMinutes } from '../globals.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A --since/--until value: a local date (its start, or with `endOfDay` its end), an ISO time, or a duration ago. */
export function parseWhen(raw: string, flag: string, now: Date, endOfDay: boolean): Date {
  const day = DAY.exec(raw);
  if (day) {
    const [y, m, dd] = [Number(day[1]), Number(day[2]) - 1, Number(day[3])];
    const d = new Date(y, m, dd);
    if (d.getFullYear() === y && d.getMonth() === m && d.getDate() === dd) return endOfDay ? new Date(y, m, dd + 1) : d;
  }
  // A duration ago, in the grammar --expiring-within reads (24h, 1d12h, 1w, 90m).
  const ago = durationMinutes(raw);
  if (ago !== undefined) return new Date(now.getTime() - ago * 60_000);
  if (/^\d{4}-\d{2}-\d{2}T/.test(raw)) {
    const t = Date.parse(raw);
    if (Number.isFinite(t)) return new Date(t);
  }
  throw new UsageError(`${flag} must be a date (YYYY-MM-DD), a time (ISO 8601) or a duration ago (24h, 1d12h, 1w, 90m); got "${raw}"`);
}
