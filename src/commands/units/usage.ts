// `units usage REF`: the usage record at whatever path the server publishes, with the quota as a bar.
// The record's field names are not in the spec: known pairs are drawn as a bar, and every field
// that arrives is shown (and passed through verbatim in JSON).
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context/index.js';
import { fillPath, resolveOperation } from '../../api/operations.js';
import { assertFormats, bar, cell, outputMode, printObject, type Column } from '../../output/index.js';
import { parseRef } from '../../units/validate.js';
import * as shapes from '../../api/shapes.js';

type Usage = Record<string, unknown>;

const USED = ['usedMb', 'todayMb', 'consumedMb', 'used'];
const LIMIT = ['quotaMb', 'dailyLimitMb', 'limitMb', 'quota', 'limit'];

/** The fraction of the quota used, for short plans (pool quota) and long plans (daily limit) alike. */
export function quotaFraction(u: Usage): { used: number; limit: number } | undefined {
  const used = USED.map((k) => u[k]).find((v): v is number => typeof v === 'number');
  const limit = LIMIT.map((k) => u[k]).find((v): v is number => typeof v === 'number' && v > 0);
  return used === undefined || limit === undefined ? undefined : { used, limit };
}

export async function run(ref: string, ctx: Context): Promise<Usage> {
  const api = await ctx.api();
  const op = await resolveOperation(api, 'unitUsage');
  const res = await api.request<Usage>(op.method, fillPath(op.path, { proxyRef: ref }), shapes.usage);
  return res.data;
}

export default async function handler({ args, ctx }: HandlerInput): Promise<void> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  const ref = parseRef(args[0]);
  const usage = await run(ref, ctx);
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
  await printObject(ctx, usage, { columns });
}
