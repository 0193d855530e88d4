// `units usage REF`: the usage record at whatever path the server publishes, with the quota as a bar.
// The record's field names are not in the spec: known pairs are drawn as a bar, and every field
// that arrives is shown (and passed through verbatim in JSON).
import { show, type Result } from '../../kit/action.js';
import type { Input } from './usage.command.js';
import { getUnitUsage } from '../../api/endpoints.js';
import { bar, cell, outputMode, withExtraFieldNames, type Column } from '../../output/index.js';
import { parseRef } from '../../units/validate.js';
import type * as shapes from '../../api/shapes.js';

type Usage = shapes.Usage;

const USED = ['usedMb', 'todayMb', 'consumedMb', 'used'];
const LIMIT = ['quotaMb', 'dailyLimitMb', 'limitMb', 'quota', 'limit'];

/** The fraction of the quota used, for short plans (pool quota) and long plans (daily limit) alike. */
export function quotaFraction(u: Usage): { used: number; limit: number } | undefined {
  const used = USED.map((k) => u[k]).find((v): v is number => typeof v === 'number');
  const limit = LIMIT.map((k) => u[k]).find((v): v is number => typeof v === 'number' && v > 0);
  return used === undefined || limit === undefined ? undefined : { used, limit };
}

/**
 * The usage record's csv columns, the same for a short plan (quota) and a long one (daily limit):
 * the sandbox's names first (the spec names only mode and totalMb), then any other field.
 */
const USAGE_FIELDS = [
  'proxyRef',
  'period',
  'mode',
  'measuredAt',
  'quotaMb',
  'usedMb',
  'dailyLimitMb',
  'todayMb',
  'remainingMb',
  'totalMb',
  'throttled',
];

export default async function handler({ args: [raw], ctx }: Input): Promise<Result> {
  const ref = parseRef(raw);
  const usage = await getUnitUsage(await ctx.api(), ref);
  const q = quotaFraction(usage);
  const columns: Column<Usage>[] = Object.keys(usage).map((k) => ({ header: k, value: (u: Usage) => u[k] }));
  if (q && (outputMode(ctx) === 'table' || outputMode(ctx) === 'tsv')) {
    const label = usage.mode === 'daily' ? 'today' : 'quota';
    columns.unshift({
      header: label,
      value: () => `${q.used} / ${q.limit} MB`,
      format: (_u, paint) => `${bar(q.used / q.limit, 20, paint)}  ${cell(q.used)} / ${cell(q.limit)} MB`,
    });
  }
  return show(usage, { columns, fields: withExtraFieldNames(USAGE_FIELDS, [usage]) });
}
