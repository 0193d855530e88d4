// `proxyctl status`: the account's status (src/account/status.ts), drawn as a screen on a terminal,
// a value a line when piped, or the report itself as JSON.
import type { Input } from './status.command.js';
import { show, showText, type Result } from '../../kit/action.js';
import { gatherStatus } from '../../account/status.js';
import { outputMode, paintFor, renderStatus, statusLinesPiped, terminalColumns } from '../../output/index.js';
import { pricesIfSet } from '../../context/prices.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const report = await gatherStatus(await ctx.api(), ctx.now().getTime(), ctx.ledger, () => pricesIfSet(ctx));
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl') return show(report);
  // Piped without -o: a value a line, for grep and cut (the screen's sentences are for people).
  if (mode === 'tsv') return showText(statusLinesPiped(report));
  // A table gets the status screen's own layout (output/status.ts), not a key/value table.
  return showText(
    await renderStatus(report, {
      paint: paintFor(ctx),
      width: terminalColumns(ctx.io),
      relative: mode === 'table',
      now: ctx.now().getTime(),
    }),
  );
}
