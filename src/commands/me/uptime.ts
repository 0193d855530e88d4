// `proxyctl me uptime`: the account-wide uptime and a per-unit table coloured by health. The
// window is checked here (day 1-30, ISO dates, from before to, 30-day cap) before any request.
import { getUptime } from '../../api/endpoints.js';
import { stripVTControlCharacters } from 'node:util';
import type { Input } from './uptime.command.js';
import { emit, finished, show, showList, showText, type Result } from '../../kit/action.js';
import { parseInteger } from '../../kit/options.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import type { Query } from '../../api/index.js';
import {
  withExtraFieldNames,
  bar,
  cell,
  outputMode,
  paintFor,
  percent,
  terminalColumns,
  withSpinner,
  type Column,
  type Paint,
} from '../../output/index.js';
import type { UnitUptime, Uptime } from '../../api/shapes.js';

export type { UnitUptime, Uptime };

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

export function parseOptions(flags: Input['flags'], now: Date): UptimeOptions {
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

export async function fetchUptime(opts: UptimeOptions, ctx: Context): Promise<Uptime> {
  const api = await ctx.api();
  const query: Query = { day: opts.day, from: opts.from, to: opts.to };
  return withSpinner(ctx, 'Fetching uptime…', () => getUptime(api, query));
}

/** Health colour: green from 99%, yellow from 95%, red below. */
function health(pct: unknown, paint: Paint): (s: string) => string {
  if (typeof pct !== 'number') return (s) => s;
  return pct >= 99 ? paint.green : pct >= 95 ? paint.yellow : paint.red;
}

function uptimeBar(pct: unknown, paint: Paint): string {
  if (typeof pct !== 'number') return '-';
  return health(pct, paint)(`${bar(pct / 100, 20).split(' ')[0]} ${percent(pct)}`);
}

/** The per-unit record's csv columns: the sandbox's names first (the spec leaves them open), then any other field. */
const UNIT_FIELDS = ['proxyRef', 'poolId', 'uptimePercent', 'slotsUp', 'slotsDown', 'slotsExcluded'];

const UNIT_COLUMNS: Column<UnitUptime>[] = [
  { header: 'unit', value: (u) => u.proxyRef, priority: 0 },
  { header: 'pool', value: (u) => u.poolId, priority: 2 },
  { header: 'uptime', value: (u) => u.uptimePercent, format: (u, p) => uptimeBar(u.uptimePercent, p), priority: 0 },
  { header: 'up', value: (u) => u.slotsUp },
  {
    header: 'down',
    value: (u) => u.slotsDown,
    format: (u, p) => (typeof u.slotsDown === 'number' && u.slotsDown > 0 ? p.red(String(u.slotsDown)) : cell(u.slotsDown)),
  },
  { header: 'excluded', value: (u) => u.slotsExcluded, priority: 3 },
];

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const opts = parseOptions(flags, ctx.now());
  const data = await fetchUptime(opts, ctx);
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') return show(data);
  const units = Array.isArray(data.units) ? data.units : undefined;
  // A shape we do not know: show whatever arrived rather than guess.
  if (!units || !('uptimePercent' in data)) return show(data);
  const paint = paintFor(ctx, mode === 'table' ? 'stdout' : 'stderr');
  // null when no unit had a countable probe in the window (no units, or all excluded).
  const why = units.length === 0 ? 'no units in this window' : 'every probe in this window was excluded';
  const measured = typeof data.uptimePercent === 'number';
  const figure = measured ? uptimeBar(data.uptimePercent as number, paint) : `not measured (${why})`;
  const label = measured ? 'Uptime' : 'Uptime:';
  const window = paint.dim(`${cell(data.from)} → ${cell(data.to)}`);
  const head = `${label} ${figure}  ${window}`;
  // On a narrow terminal the window goes to its own line rather than wrapping.
  const width = mode === 'table' ? terminalColumns(ctx.io) : undefined;
  const fitted = width !== undefined && stripVTControlCharacters(head).length > width ? `${label} ${figure}\n${window}` : head;
  const summary =
    `${fitted}\n` +
    `slots: ${cell(data.slotsUp)} up, ${cell(data.slotsDown)} down, ${cell(data.slotsExcluded)} excluded (probes that could not reach the provider)`;
  // On a terminal the summary heads the table; piped, stdout keeps only the per-unit rows.
  if (mode === 'table') await emit(ctx, showText(summary));
  else for (const line of summary.split('\n')) ctx.notice(line);
  const known = new Set<string>(UNIT_FIELDS);
  const extras = [...new Set(units.flatMap((u) => Object.keys(u ?? {})))].filter((k) => !known.has(k) && k !== 'from' && k !== 'to');
  const columns = mode === 'csv' ? undefined : [...UNIT_COLUMNS, ...extras.map((k) => ({ header: k, value: (u: UnitUptime) => u[k] }))];
  await emit(ctx, showList(units, { columns, fields: withExtraFieldNames(UNIT_FIELDS, units), empty: 'No units in this window.' }));
  return finished(ctx);
}
