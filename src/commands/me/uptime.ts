// `proxyctl me uptime`: the account-wide uptime and a per-unit table coloured by health. The
// window is checked before any request (parseUptimeWindow, src/account/uptime.ts).
import { stripVTControlCharacters } from 'node:util';
import type { Input } from './uptime.command.js';
import { emit, finished, show, showList, showText, type Result } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import { parseUptimeWindow, readUptime, type UptimeOptions } from '../../account/uptime.js';
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

async function fetchUptime(opts: UptimeOptions, ctx: Context): Promise<Uptime> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching uptime…', () => readUptime(api, opts));
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
  const opts = parseUptimeWindow(flags, ctx.now());
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
