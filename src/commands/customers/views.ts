// How customers, their statements and their money look in tables: the customer and the money
// columns are never hidden (priority 0); what a narrow terminal can do without goes first.
import { clockTime, money, relativeTime, type Column, type Paint, type View } from '../../output/index.js';
import { CUSTOMER_FIELDS, STATEMENT_LINE_FIELDS, type CustomerRow, type StatementLine } from '../../ledger/billing.js';

/** The untagged row's name in tables (null in json, an empty cell in csv). */
export const UNTAGGED = '(untagged)';

const signed = (usd: number, p: Paint) => (usd < 0 ? p.red(money(usd)) : money(usd));

/** Columns a statement line, a customer row or a group shares: cost, billed, margin. */
export function moneyColumns<T>(cost: (r: T) => number, billed: (r: T) => number, margin?: (r: T) => number): Column<T>[] {
  const cols: Column<T>[] = [
    { header: 'cost', value: (r) => cost(r).toFixed(2), format: (r) => money(cost(r)), priority: 0 },
    { header: 'billed', value: (r) => billed(r).toFixed(2), format: (r) => money(billed(r)), priority: 0 },
  ];
  if (margin) cols.push({ header: 'margin', value: (r) => margin(r).toFixed(2), format: (r, p) => signed(margin(r), p), priority: 0 });
  return cols;
}

export const customerView: View<CustomerRow> = {
  columns: [
    {
      header: 'customer',
      value: (r) => r.customer ?? UNTAGGED,
      format: (r, p) => (r.customer === null ? p.dim(UNTAGGED) : r.customer),
      priority: 0,
    },
    { header: 'units', value: (r) => r.activeUnits, priority: 2 },
    {
      header: 'next expiry',
      value: (r) => r.nextExpiry ?? '',
      format: (r) => (r.nextExpiry === null ? '-' : relativeTime((Date.parse(r.nextExpiry) - Date.now()) / 1000)),
      priority: 3,
    },
    ...moneyColumns<CustomerRow>(
      (r) => r.costUsd,
      (r) => r.billedUsd,
      (r) => r.marginUsd,
    ),
  ],
  fields: CUSTOMER_FIELDS,
  empty: 'No customers: no tagged units, no spend in this window and no prices set.',
};

type Line = StatementLine & { customer?: string };

/** A statement's lines; with `withCustomer` (statement --all) the customer leads each row. */
export function statementView(withCustomer: boolean, utc = false): View<Line> {
  const columns: Column<Line>[] = [
    { header: 'at', value: (l) => l.at, format: (l) => clockTime(l.at, utc, Date.now()), priority: 2 },
    { header: 'ref', value: (l) => l.ref, priority: 1 },
    { header: 'operation', value: (l) => l.operation, priority: 3 },
    { header: 'pool', value: (l) => l.poolId ?? '', priority: 4 },
    { header: 'period', value: (l) => l.period ?? '', priority: 2 },
    ...moneyColumns<Line>(
      (l) => l.costUsd,
      (l) => l.billedUsd,
    ),
  ];
  if (withCustomer) columns.unshift({ header: 'customer', value: (l) => l.customer ?? '', priority: 0 });
  return {
    columns,
    fields: withCustomer ? ['customer', ...STATEMENT_LINE_FIELDS] : STATEMENT_LINE_FIELDS,
    empty: 'No debits for this customer in this window.',
  };
}
