// What a bulk command (create, extend, release) shows for the items it did.
import { emit, show, showList } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import type { View } from '../../output/index.js';
import { errorSummary, type BulkReport, type Outcome } from '../../units/bulk.js';

/**
 * Prints what was done: one item as the object itself; several as a list. JSON gets one entry per
 * attempted item (failures as `failureRow`), other formats only what succeeded.
 */
export async function emitOutcomes<R>(
  ctx: Context,
  report: BulkReport<R>,
  views: { one: View<R>; many: View<R> },
  failureRow: (o: Outcome<R> & { ok: false }) => Record<string, unknown>,
  /** Always a list, even of one item (a batch chosen by a selection, not named one by one). */
  list = false,
): Promise<void> {
  if (report.total === 1 && !list) {
    const only = report.outcomes[0];
    if (only?.ok) await emit(ctx, show(only.value, views.one));
    return;
  }
  if (report.outcomes.length === 0) {
    // A selection left with nothing to do (every unit handled elsewhere) is an empty list to a script.
    if (list) await emit(ctx, showList([], { ...views.many, empty: undefined }));
    return;
  }
  const json = ctx.globals.output === 'json' || ctx.globals.output === 'jsonl';
  const rows = json
    ? report.outcomes.map((o) => (o.ok ? o.value : { ...failureRow(o), error: errorSummary(o.error) }))
    : report.outcomes.flatMap((o) => (o.ok ? [o.value] : []));
  // Every item failed: the summary on stderr says so; an empty list would add "No units found.".
  if (rows.length === 0) return;
  await emit(ctx, showList(rows as R[], views.many));
}
