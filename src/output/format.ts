// Small formatting helpers shared by tables: durations, money, bars, connection strings.
import { PERIODS } from '../api/enums.js';
import { styleText } from 'node:util';
import { escapeControl } from './escape.js';

export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

export const plainPaint: Paint = {
  bold: (s) => s,
  dim: (s) => s,
  red: (s) => s,
  green: (s) => s,
  yellow: (s) => s,
  cyan: (s) => s,
};

/** 93784 → "1d 2h", 3599 → "59m 59s", ≤0 → "expired". */
export function humanDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '-';
  if (seconds <= 0) return 'expired';
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  if (m > 0) return s > 0 ? `${m}m ${s}s` : `${m}m`;
  return `${s}s`;
}

export function money(amount: unknown, currency = 'USD'): string {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return '-';
  return `${amount.toFixed(2)} ${currency}`;
}

/** A fixed-width bar for a fraction in [0, 1]: "█████░░░░░ 50%". */
export function bar(fraction: number, width = 20, paint: Paint = plainPaint): string {
  const f = Number.isFinite(fraction) ? Math.min(Math.max(fraction, 0), 1) : 0;
  const filled = Math.round(f * width);
  const body = '█'.repeat(filled) + '░'.repeat(width - filled);
  const colour = f >= 0.9 ? paint.red : f >= 0.75 ? paint.yellow : paint.green;
  return `${colour(body)} ${Math.round(f * 100)}%`;
}

export interface UnitLike {
  ip?: unknown;
  port?: unknown;
  credentials?: { username?: unknown; password?: unknown } | null;
}

/** The contract's connection string: ip:port:username:password, or ip:port without credentials. */
export function connString(u: UnitLike): string | undefined {
  if (typeof u.ip !== 'string' || (typeof u.port !== 'number' && typeof u.port !== 'string')) return undefined;
  const c = u.credentials;
  if (c && typeof c.username === 'string' && typeof c.password === 'string') return `${u.ip}:${u.port}:${c.username}:${c.password}`;
  return `${u.ip}:${u.port}`;
}

/** A cell for anything: strings as they are, objects as compact JSON, null/undefined as "-"; control characters escaped. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string') return escapeControl(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  // JSON.stringify leaves DEL and C1 as they are.
  return escapeControl(JSON.stringify(v) ?? String(v));
}

export { PERIODS };

/** The periods of a Prices object, shortest first; periods the server adds follow, never dropped. */
export function periodOrder(prices: Record<string, unknown>): string[] {
  const known = PERIODS.filter((k) => k in prices);
  return [...known, ...Object.keys(prices).filter((k) => !(PERIODS as readonly string[]).includes(k))];
}

/** A Prices object on one line: "3h 1.20 · 12h 3.00 · …". */
export function pricesText(prices: unknown): string {
  if (!prices || typeof prices !== 'object') return '-';
  const p = prices as Record<string, unknown>;
  return periodOrder(p)
    .map((k) => `${k} ${typeof p[k] === 'number' ? (p[k] as number).toFixed(2) : cell(p[k])}`)
    .join(' · ');
}

/** "99.5%" from a percentage, "-" when absent. */
export function percent(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? `${Number(v.toFixed(2))}%` : '-';
}

/**
 * Paint without chalk, for what runs before any command is loaded (error lines, warnings): the
 * entry chunk stays free of chalk. node:util's styleText writes the same codes chalk does; the
 * colour decision is ours (shouldColor), not the stream's.
 */
export function paintWhen(on: boolean): Paint {
  if (!on) return plainPaint;
  const style = (format: 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan') => (s: string) =>
    styleText(format, s, { validateStream: false });
  return { bold: style('bold'), dim: style('dim'), red: style('red'), green: style('green'), yellow: style('yellow'), cyan: style('cyan') };
}

/** Expiry as people say it: "in 3h 12m", or "expired". */
export function relativeTime(secondsLeft: number): string {
  const d = humanDuration(secondsLeft);
  return d === 'expired' || d === '-' ? d : `in ${d}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HALF_YEAR_MS = 182.5 * 86_400_000;

/**
 * A time for people, as `ls -l` shows one: "Jan  8 14:05" within half a year of now, else
 * "Jan  8  2031"; always 12 characters, so a column of them lines up. In the local time zone (the
 * TZ variable), or in UTC with `utc`. "-" for what is not a time.
 */
/**
 * An ISO time shortened for a narrow table: `2026-11-28 02:17Z` (UTC, to the minute), 17 characters
 * instead of 24, still unambiguous and sortable; anything else is shown as it is.
 */
export function shortTime(at: unknown): string {
  const t = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  if (!Number.isFinite(t)) return cell(at);
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')}Z`;
}

export function clockTime(at: unknown, utc: boolean, nowMs: number): string {
  const t = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  if (!Number.isFinite(t)) return '-';
  const d = new Date(t);
  const [year, month, day, hour, minute] = utc
    ? [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()]
    : [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()];
  const two = (n: number) => String(n).padStart(2, '0');
  const when = Math.abs(t - nowMs) < HALF_YEAR_MS ? `${two(hour)}:${two(minute)}` : String(year).padStart(5);
  return `${MONTHS[month]} ${String(day).padStart(2)} ${when}`;
}

/**
 * What a unit that no longer runs says instead of a time left: "expired 3d 2h ago", "released 5m
 * ago", or the bare word when it is not known when (no time, or one not yet past).
 */
export function endedText(what: 'expired' | 'released', at: unknown, nowMs: number): string {
  const t = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  const ago = Math.floor((nowMs - t) / 1000);
  return Number.isFinite(ago) && ago > 0 ? `${what} ${humanDuration(ago)} ago` : what;
}

const SPARKS = '▁▂▃▄▅▆▇█';

/**
 * One block per value in [0, 1] (null: a gap, "·"). The scale starts at `floor`, so 95 % and
 * 100 % uptime look different, as they should.
 */
export function sparkline(values: (number | null)[], floor = 0): string {
  return values
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return '·';
      const f = Math.min(Math.max((v - floor) / (1 - floor), 0), 1);
      return SPARKS[Math.round(f * (SPARKS.length - 1))]!;
    })
    .join('');
}
