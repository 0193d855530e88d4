// `customers show NAME`: the customer's active units (a table, csv or -o conn lines to hand over),
// then its money on stderr; with -o json one object holding both (src/ledger/customer-report.ts).
import type { Input } from './show.command.js';
import { emit, finished, show, showList, type Result } from '../../kit/action.js';
import { money, outputMode } from '../../output/index.js';
import { withConnFormat } from '../../output/conn.js';
import { customerDetail, RENEWAL_DAYS } from '../../ledger/customer-report.js';
import { markupText } from '../../ledger/billing.js';
import { resolveWindow } from '../../ledger/window.js';
import { unitTerminalView, unitView } from '../../units/view.js';
import { customerName, reportSources, unknownCustomer } from './sources.js';

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const name = customerName(raw);
  const window = resolveWindow(flags, ctx.now());
  const mode = outputMode(ctx);
  const view = withConnFormat(ctx, mode === 'table' ? unitTerminalView(flags.utc === true) : unitView, flags.connFormat);
  const sources = await reportSources(ctx);
  const d = await customerDetail(await ctx.api(), sources, name, window, ctx.now());
  if (!d) throw unknownCustomer(name, `no active units tagged customer=${name} and no debits in the ledger`);
  if (mode === 'json') return show(d);
  await emit(ctx, showList(d.units, { ...view, empty: `${name} has no active units.` }));
  const p = d.pricing;
  const fixed = Object.entries(p.prices ?? {}).map(([period, usd]) => `${period} ${money(usd)}`);
  const rest =
    p.markupPercent !== undefined
      ? `markup ${markupText(p.markupPercent)}`
      : p.defaultMarkupPercent !== undefined
        ? `the default markup ${markupText(p.defaultMarkupPercent)}`
        : 'at cost';
  ctx.notice(`${name}: ${d.activeUnits} active unit(s); billed ${fixed.length > 0 ? `${fixed.join(', ')}, other periods ${rest}` : rest}.`);
  ctx.notice(`From ${d.from} to ${d.to}: cost ${money(d.costUsd)}, billed ${money(d.billedUsd)}, margin ${money(d.marginUsd)}.`);
  const r = d.renewal;
  ctx.notice(
    r.units.length === 0
      ? `Nothing due within ${RENEWAL_DAYS} days.`
      : `Renewing the ${r.units.length} unit(s) due within ${RENEWAL_DAYS} days (${r.units.map((u) => `${u.ref} ${u.period ?? '?'}`).join(', ')}): cost ${money(r.costUsd)}, billed ${money(r.billedUsd)}, margin ${money(r.marginUsd)}${r.unpriced > 0 ? `; ${r.unpriced} without a price for their period, left out` : ''}.`,
  );
  return finished(ctx);
}
