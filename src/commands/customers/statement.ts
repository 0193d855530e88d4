// `customers statement NAME|--all`: the debits attributed to a customer in the window, each with
// what it cost and what it is billed, and the totals (src/ledger/billing.ts buildStatement). csv is
// one row per line, for an invoicing tool; the totals go to stderr there and in tables.
import type { Input } from './statement.command.js';
import { emit, finished, show, showList, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { money, outputMode } from '../../output/index.js';
import { allStatements, statementOf } from '../../ledger/customer-report.js';
import { resolveWindow } from '../../ledger/window.js';
import { customerName, reportSources, unknownCustomer } from './sources.js';
import { statementView } from './views.js';

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  if (flags.all && raw !== undefined) throw new UsageError('give a customer NAME or --all, not both');
  if (!flags.all && raw === undefined) throw new UsageError('name the customer (customers statement NAME), or give --all');
  const name = raw === undefined ? undefined : customerName(raw);
  const window = resolveWindow(flags, ctx.now());
  const mode = outputMode(ctx);
  const sources = await reportSources(ctx);
  const totals = (s: { costUsd: number; billedUsd: number; marginUsd: number }) =>
    `cost ${money(s.costUsd)}, billed ${money(s.billedUsd)}, margin ${money(s.marginUsd)}`;
  const span = `from ${window.since.toISOString()} to ${window.until.toISOString()}`;
  if (name !== undefined) {
    const st = await statementOf(await ctx.api(), sources, name, window);
    if (!st)
      throw unknownCustomer(name, 'no debit in the ledger was ever attributed to it, no unit is tagged with it, and it has no prices');
    if (mode === 'json') return show(st);
    await emit(ctx, showList(st.lines, statementView(false, flags.utc === true)));
    ctx.notice(`${name} ${span}: ${st.lines.length} debit(s); ${totals(st)}.`);
    return finished(ctx);
  }
  const { statements, untagged } = await allStatements(sources, window);
  if (mode === 'json') await emit(ctx, showList(statements, { empty: 'No customer has a debit in this window.' }));
  else {
    const lines = statements.flatMap((st) => st.lines.map((l) => ({ customer: st.customer, ...l })));
    await emit(ctx, showList(lines, { ...statementView(true, flags.utc === true), empty: 'No customer has a debit in this window.' }));
    for (const st of statements) ctx.notice(`${st.customer}: ${st.lines.length} debit(s); ${totals(st)}.`);
  }
  if (untagged.count > 0)
    ctx.notice(
      `${untagged.count} debit(s) ${span} (${money(untagged.costUsd)}) belong to no customer and are on no statement; tag their units with proxyctl units modify REF --customer NAME.`,
    );
  return finished(ctx);
}
