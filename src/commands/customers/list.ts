// `proxyctl customers` (= `customers list`): one row per customer (and the untagged row) with active units, the next
// expiry, and what the window's debits cost, are billed and earn (src/ledger/customer-report.ts).
import type { Input } from './list.command.js';
import { emit, finished, showList, type Result } from '../../kit/action.js';
import { money } from '../../output/index.js';
import { listCustomers } from '../../ledger/customer-report.js';
import { hasPrices } from '../../ledger/billing.js';
import { resolveWindow } from '../../ledger/window.js';
import { reportSources } from './sources.js';
import { customerView } from './views.js';

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const window = resolveWindow(flags, ctx.now());
  const sources = await reportSources(ctx);
  const rows = await listCustomers(await ctx.api(), sources, window);
  await emit(ctx, showList(rows, customerView));
  const cents = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + Math.round(pick(r) * 100), 0) / 100;
  if (rows.length > 0) {
    ctx.notice(
      `Total from ${window.since.toISOString()} to ${window.until.toISOString()}: cost ${money(cents((r) => r.costUsd))}, billed ${money(cents((r) => r.billedUsd))}, margin ${money(cents((r) => r.marginUsd))}.`,
    );
  }
  if (!hasPrices(sources.book))
    ctx.notice(
      'No prices set: billed is the cost. Set them with proxyctl customers set NAME --markup 30% or config set default-markup 30%.',
    );
  return finished(ctx);
}
