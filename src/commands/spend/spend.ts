// `proxyctl spend`: the account's ledger (src/ledger/) read back. One row per debit by default (the
// JSON array a script sums), totals per group with --by, and with --reconcile the stretches between
// balance readings that the debits do not explain (top-ups, refunds, purchases made elsewhere).
import type { Input } from './spend.command.js';
import { emit, finished, showList, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { money } from '../../output/index.js';
import type { Column } from '../../output/index.js';
import type { LedgerEntry } from '../../ledger/index.js';
import { groupSpend, inWindow, isWithin, totalUsd, type Grouping, type SpendGroup } from '../../ledger/report.js';
import { reconcile, type Unexplained } from '../../ledger/reconcile.js';
import { readSightings } from '../../ledger/sightings.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const AGO = /^(\d+)(h|d)$/;

/** A --since/--until value: a local date (its start, or with `endOfDay` its end), an ISO time, or a duration ago. */
export function parseWhen(raw: string, flag: string, now: Date, endOfDay: boolean): Date {
  const day = DAY.exec(raw);
  if (day) {
    const [y, m, dd] = [Number(day[1]), Number(day[2]) - 1, Number(day[3])];
    const d = new Date(y, m, dd);
    if (d.getFullYear() === y && d.getMonth() === m && d.getDate() === dd) return endOfDay ? new Date(y, m, dd + 1) : d;
  }
  const ago = AGO.exec(raw);
  if (ago) return new Date(now.getTime() - Number(ago[1]) * (ago[2] === 'h' ? 3600_000 : 86_400_000));
  if (/^\d{4}-\d{2}-\d{2}T/.test(raw)) {
    const t = Date.parse(raw);
    if (Number.isFinite(t)) return new Date(t);
  }
  throw new UsageError(`${flag} must be a date (YYYY-MM-DD), a time (ISO 8601) or a duration ago (24h, 7d); got "${raw}"`);
}

const entryColumns: Column<LedgerEntry>[] = [
  { header: 'At', value: (e) => e.at },
  { header: 'Operation', value: (e) => e.operation },
  { header: 'Ref', value: (e) => e.ref },
  { header: 'Pool', value: (e) => e.poolId ?? '' },
  { header: 'Period', value: (e) => e.period ?? '' },
  { header: 'Price', value: (e) => money(e.priceUsd) },
  { header: 'Customer', value: (e) => e.customer ?? '', priority: 2 },
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

const gapColumns: Column<Unexplained>[] = [
  { header: 'From', value: (u) => u.from },
  { header: 'To', value: (u) => u.to },
  { header: 'Balance before', value: (u) => money(u.balanceBefore) },
  { header: 'Balance after', value: (u) => money(u.balanceAfter) },
  { header: 'Ledger debits', value: (u) => money(u.debitedUsd) },
  { header: 'Unexplained', value: (u) => money(u.unexplainedUsd) },
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
  const all = await ledger.journal.read();
  const entries = inWindow(all, since, until);
  const window = `${since ? ` since ${since.toISOString()}` : ''}${until ? ` until ${until.toISOString()}` : ''}`;
  if (flags.reconcile) {
    const gaps = reconcile(all, await readSightings(ledger.local)).filter((g) => isWithin(g.to, since, until));
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
  const total = totalUsd(entries);
  if (flags.by) {
    const groups = groupSpend(entries, flags.by as Grouping);
    await emit(
      ctx,
      showList(groups, {
        columns: groupColumns(flags.by as Grouping),
        fields: ['group', 'count', 'created', 'extended', 'totalUsd'],
        empty: 'Nothing spent in this window.',
      }),
    );
  } else {
    await emit(ctx, showList(entries, { columns: entryColumns, fields: ENTRY_FIELDS, empty: 'Nothing spent in this window.' }));
  }
  ctx.notice(`Total: ${money(total)} over ${entries.length} debit(s)${window}.`);
  return finished(ctx);
}
