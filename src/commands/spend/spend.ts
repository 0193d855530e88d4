// `proxyctl spend`: the account's ledger (src/ledger/) read back. One row per debit by default (the
// JSON array a script sums), totals per group with --by, and with --reconcile the stretches between
// balance readings that the debits do not explain (top-ups, refunds, purchases made elsewhere).
import type { Input } from './spend.command.js';
import { emit, finished, showList, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { money, shortTime } from '../../output/index.js';
import type { Column } from '../../output/index.js';
import type { LedgerEntry } from '../../ledger/index.js';
import { inWindowPages, isWithin, SpendGroups, SpendTally, type Grouping, type SpendGroup } from '../../ledger/report.js';
import { debitWindows, reconcileWindows, type Unexplained } from '../../ledger/reconcile.js';
import { readSightings } from '../../ledger/sightings.js';
import { BilledTally, hasPrices } from '../../ledger/billing.js';
import { parseWhen } from '../../ledger/when.js';
import { priceBookNow } from '../../context/prices.js';

// On a narrow terminal the answer stays: what was paid, for which unit and which customer. The
// time shortens to the minute first, then where it came from, its period, pool and operation go.
const entryColumns: Column<LedgerEntry>[] = [
  { header: 'At', value: (e) => e.at, compact: (e) => shortTime(e.at) },
  { header: 'Operation', value: (e) => e.operation, priority: 2 },
  { header: 'Ref', value: (e) => e.ref, priority: 0 },
  { header: 'Pool', value: (e) => e.poolId ?? '', priority: 2 },
  { header: 'Period', value: (e) => e.period ?? '', priority: 2 },
  { header: 'Price', value: (e) => money(e.priceUsd), priority: 0 },
  { header: 'Customer', value: (e) => e.customer ?? '', priority: 1 },
  { header: 'Source', value: (e) => e.source, priority: 3 },
];
const ENTRY_FIELDS = [
  'at',
  'operation',
  'ref',
  'poolId',
  'country',
  'period',
  'priceUsd',
  'customer',
  'description',
  'idempotencyKey',
  'source',
  'profile',
  'id',
];

const groupColumns = (by: Grouping): Column<SpendGroup>[] => [
  { header: by[0]!.toUpperCase() + by.slice(1), value: (g) => g.group },
  { header: 'Debits', value: (g) => g.count },
  { header: 'Created', value: (g) => g.created },
  { header: 'Extended', value: (g) => g.extended },
  { header: 'Total', value: (g) => money(g.totalUsd) },
];

/** --by customer with prices set: on a narrow terminal the counts go, the customer and the money stay. */
const billedColumns: Column<SpendGroup & { billedUsd: number; marginUsd: number }>[] = [
  { header: 'Customer', value: (g) => g.group, priority: 0 },
  { header: 'Debits', value: (g) => g.count, priority: 2 },
  { header: 'Created', value: (g) => g.created, priority: 3 },
  { header: 'Extended', value: (g) => g.extended, priority: 3 },
  { header: 'Total', value: (g) => money(g.totalUsd), priority: 0 },
  { header: 'Billed', value: (g) => money(g.billedUsd), priority: 0 },
  { header: 'Margin', value: (g) => money(g.marginUsd), priority: 0 },
];

// The answer is the unexplained amount and when: the times shorten first, then the figures it is
// computed from go (the balance after, then the debits, then the balance before).
const gapColumns: Column<Unexplained>[] = [
  { header: 'From', value: (u) => u.from, compact: (u) => shortTime(u.from) },
  { header: 'To', value: (u) => u.to, compact: (u) => shortTime(u.to), priority: 0 },
  { header: 'Balance before', value: (u) => money(u.balanceBefore), priority: 2 },
  { header: 'Balance after', value: (u) => money(u.balanceAfter), priority: 4 },
  { header: 'Ledger debits', value: (u) => money(u.debitedUsd), priority: 3 },
  { header: 'Unexplained', value: (u) => money(u.unexplainedUsd), priority: 0 },
];

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const now = ctx.now();
  const since = flags.since === undefined ? undefined : parseWhen(flags.since, '--since', now, false);
  const until = flags.until === undefined ? undefined : parseWhen(flags.until, '--until', now, true);
  if (since && until && since >= until) throw new UsageError('--since must be before --until');
  if (flags.reconcile && flags.by)
    throw new UsageError(`--reconcile lists each balance change the ledger does not explain; it has no totals per ${flags.by}`, {
      hint: 'choose the stretch with --since/--until, or drop --reconcile for the totals',
    });
  const ledger = await ctx.ledger();
  const window = `${since ? ` since ${since.toISOString()}` : ''}${until ? ` until ${until.toISOString()}` : ''}`;
  // The ledger is streamed (JournalStore.pages): what a run holds does not grow with the journal.
  if (flags.reconcile) {
    // The whole journal, as reconcile() needs it, but only each debit's window and amount are held.
    const sightings = await readSightings(ledger.local);
    const debits = [];
    for await (const page of ledger.journal.pages()) debits.push(...debitWindows(page, sightings));
    const gaps = reconcileWindows(debits, sightings).filter((g) => isWithin(g.to, since, until));
    ctx.notice(
      gaps.length === 0
        ? `The ledger explains every balance change proxyctl has seen${window}.`
        : `${gaps.length} balance change(s) the ledger does not explain${window}: a top-up or refund (negative), or a purchase made outside proxyctl (positive; run webhook listen --ledger to count those).`,
    );
    return showList(gaps, {
      columns: gapColumns,
      fields: ['from', 'to', 'balanceBefore', 'balanceAfter', 'debitedUsd', 'unexplainedUsd'],
      empty: '',
    });
  }
  const tally = new SpendTally();
  if (flags.by) {
    // Totals on the fly: one line per group is held, and the debits in any order (sums in cents).
    const groups = new SpendGroups(flags.by as Grouping);
    const book = flags.by === 'customer' ? await priceBookNow(ctx) : undefined;
    const billed = book && hasPrices(book) ? new BilledTally(book) : undefined;
    for await (const page of inWindowPages(ledger.journal.pages({ ordered: false }), since, until, tally))
      for (let i = 0; i < page.length; i++) {
        groups.add(page[i]!);
        billed?.add(page[i]!);
      }
    if (billed) {
      // With prices set (customers set, default-markup): what each customer is billed, and the margin.
      await emit(
        ctx,
        showList(billed.beside(groups.list()), {
          columns: billedColumns,
          fields: ['group', 'count', 'created', 'extended', 'totalUsd', 'billedUsd', 'marginUsd'],
          empty: 'Nothing spent in this window.',
        }),
      );
    } else
      await emit(
        ctx,
        showList(groups.list(), {
          columns: groupColumns(flags.by as Grouping),
          fields: ['group', 'count', 'created', 'extended', 'totalUsd'],
          empty: 'Nothing spent in this window.',
        }),
      );
  } else {
    // Every debit, in read()'s order, printed as the pages come (a table alone is drawn whole).
    const pages = inWindowPages(ledger.journal.pages(), since, until, tally);
    await emit(ctx, showList({ pages }, { columns: entryColumns, fields: ENTRY_FIELDS, empty: 'Nothing spent in this window.' }));
  }
  ctx.notice(`Total: ${money(tally.totalUsd)} over ${tally.count} debit(s)${window}.`);
  return finished(ctx);
}
