// A tool that acts on several units answers item by item, as `-o json` of the same verb does:
// what was done, what failed with the CLI's error code, what was not started. Nothing done at
// all is the first failure itself, so the agent gets an isError result with its code.
import { z } from 'zod';
import { exitCodeFor } from '../errors.js';
import { errorSummary, type BulkReport } from '../units/bulk.js';

export const bulkOutput = {
  items: z.array(
    z.looseObject({
      ok: z.boolean(),
      proxyRef: z.string().optional(),
      item: z.string().optional().describe("a failed purchase's place in the batch (#1, #2, …)"),
      error: z.looseObject({ code: z.string(), message: z.string(), exitCode: z.number().int() }).optional(),
    }),
  ),
  succeeded: z.number().int(),
  failed: z.number().int(),
  notStarted: z.array(z.string()).describe('units not tried: the call was cancelled, or their pool kept failing upstream'),
};

export type BulkResult = z.input<z.ZodObject<typeof bulkOutput>>;

/** `label` names what an item's label is: a unit's ref, or (for purchases) its place in the batch. */
export function bulkResult<R extends object>(report: BulkReport<R>, label: 'proxyRef' | 'item' = 'proxyRef'): BulkResult {
  const failed = report.outcomes.filter((o) => !o.ok);
  const first = failed[0];
  if (first && !first.ok && failed.length === report.outcomes.length) throw first.error;
  return {
    items: report.outcomes.map((o) =>
      o.ok
        ? { ok: true, ...o.value }
        : { ok: false, [label]: o.label, error: { ...errorSummary(o.error), exitCode: exitCodeFor(o.error) } },
    ),
    succeeded: report.outcomes.length - failed.length,
    failed: failed.length,
    notStarted: report.pending,
  };
}
