// `proxyctl spend holds`: the budget holds of the account (src/ledger/budget.ts) that count against
// max-spend-per-day now, and `--drop ID` for the hold of a run that is gone. A run at work holds what
// it is about to charge; a killed run's hold keeps counting what it did not enter (its purchases may
// have gone through) until its batch is resumed with the same idempotency key, everything it held is
// entered, 24 hours pass, or it is dropped here.
import type { Input } from './holds.command.js';
import { show, showList, type Result } from '../../kit/action.js';
import { dropHold, listHolds, type HoldInfo } from '../../ledger/index.js';
import { money, type Column } from '../../output/index.js';

const columns: Column<HoldInfo>[] = [
  { header: 'Id', value: (h) => h.id },
  { header: 'State', value: (h) => h.state },
  { header: 'Operation', value: (h) => h.operation },
  { header: 'Started', value: (h) => h.startedAt, priority: 2 },
  { header: 'Held', value: (h) => money(h.amountUsd) },
  { header: 'Entered', value: (h) => money(h.enteredUsd) },
  { header: 'Counts', value: (h) => money(h.remainingUsd) },
  { header: 'Key', value: (h) => h.idempotencyKey ?? '', priority: 3 },
  { header: 'Units', value: (h) => (h.refs.length > 0 ? h.refs.length : ''), priority: 3 },
  { header: 'Host', value: (h) => h.host ?? '', priority: 4 },
];
const FIELDS = [
  'id',
  'state',
  'operation',
  'startedAt',
  'endedAt',
  'amountUsd',
  'enteredUsd',
  'remainingUsd',
  'idempotencyKey',
  'refs',
  'host',
  'source',
];

const STATE_TEXT: Record<HoldInfo['state'], string> = {
  live: 'its run is at work',
  killed: 'its run was killed',
  ended: 'its run ended before entering the debits of the killed run it resumed',
};

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const ledger = await ctx.ledger();
  if (flags.drop !== undefined) {
    const h = await dropHold(ledger.holds, flags.drop.trim(), ctx.now());
    const check =
      h.operation === 'create' && h.idempotencyKey
        ? `if its purchases went through, re-running the batch with --idempotency-key ${h.idempotencyKey} replays and enters them at no charge`
        : h.refs.length > 0
          ? `if its extensions went through (proxyctl units get ${h.refs[0]}${h.refs.length > 1 ? ' …' : ''}), the ledger does not show them; proxyctl spend --reconcile finds such gaps`
          : 'if what it charged went through, the ledger does not show it; proxyctl spend --reconcile finds such gaps';
    ctx.notice(
      `dropped hold ${h.id} (${STATE_TEXT[h.state]}): ${money(h.remainingUsd)} no longer counts against the daily budget; this frees budget, not money: ${check}`,
    );
    return show(h, { fields: FIELDS });
  }
  const holds = await listHolds(ledger.holds, ctx.now());
  if (holds.some((h) => h.state !== 'live'))
    ctx.notice(
      "a killed run's hold counts what it did not enter (it may have gone through) until its purchase batch is resumed with the same --idempotency-key, 24 hours pass, or you drop it (proxyctl spend holds --drop ID) after checking what it did",
    );
  return showList(holds, { columns, fields: FIELDS, empty: 'No budget holds count now.' });
}
