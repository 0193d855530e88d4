// How units look in tables and as connection strings (-o conn).
import {
  cell,
  clockTime,
  connString,
  endedText,
  humanDuration,
  money,
  relativeTime,
  type Column,
  type Paint,
  type View,
} from '../output/index.js';
import type { Unit } from './types.js';
import { secondsLeft } from './select.js';

/** Views have no context clock: the table's "time left" is against the local clock when the server gives no expiresIn. */
const timeLeft = (u: Unit) => secondsLeft(u, Date.now());

/**
 * A unit that no longer runs never shows a time left: a released one says so (and when, if the
 * server says), an expired one when it expired. Undefined while it runs.
 */
function ended(u: Unit): string | undefined {
  if (u.status === 'RELEASED') return endedText('released', u.releasedAt, Date.now());
  const s = timeLeft(u);
  if (u.status === 'EXPIRED' || (s !== undefined && s <= 0)) return endedText('expired', u.expiresAt, Date.now());
  return undefined;
}

/**
 * On a terminal too narrow for every column, what tells units apart goes last (higher priority
 * numbers go first): the pool (and its provider) is often the same for a whole fleet, and the
 * status says little beside the time left ("expired 2h ago"), while the protocol decides how the
 * connection string is used.
 */
export const UNIT_COLUMNS: Column<Unit>[] = [
  { header: 'ref', value: (u) => u.proxyRef, format: (u, p) => p.bold(u.proxyRef), priority: 0 },
  { header: 'pool', value: (u) => u.poolId, priority: 4 },
  { header: 'protocol', value: (u) => u.protocol, priority: 2 },
  {
    header: 'status',
    priority: 3,
    value: (u) => u.status,
    format: (u, p) => (u.status === 'ACTIVE' ? p.green : u.status === 'EXPIRED' ? p.yellow : p.dim)(cell(u.status)),
  },
  {
    header: 'time left',
    value: (u) => {
      const s = timeLeft(u);
      return ended(u) ?? (s === undefined ? undefined : humanDuration(s));
    },
    // On a terminal: "in 3h 12m", highlighted under a day (piped rows keep the plain value).
    format: (u, p) => {
      const over = ended(u);
      if (over !== undefined) return p.dim(over);
      const s = timeLeft(u);
      if (s === undefined) return '-';
      return s < 86_400 ? p.yellow(relativeTime(s)) : relativeTime(s);
    },
    priority: 1,
  },
  // What the unit is for: kept whole, never cut or wrapped; hidden, pointing at -o conn, only when it cannot fit.
  { header: 'connection', value: (u) => connString(u), priority: 0, whole: '-o conn' },
];

/** Key/value rows for one unit: the table columns, then the details worth seeing. */
export const UNIT_DETAIL: Column<Unit>[] = [
  ...UNIT_COLUMNS,
  { header: 'provider', value: (u) => u.provider },
  { header: 'country', value: (u) => u.country },
  { header: 'expires at', value: (u) => u.expiresAt },
  { header: 'allowed ips', value: (u) => (Array.isArray(u.allowedIps) && u.allowedIps.length ? u.allowedIps.join(', ') : undefined) },
  { header: 'description', value: (u) => (u.description === '' ? undefined : u.description) },
];

/**
 * A unit's csv columns (spec 2.5, then the sandbox's `period`), the same for every unit: an
 * http_noauth unit has empty credentials cells, a socks5 one an empty allowedIps cell.
 */
export const UNIT_FIELDS = [
  'proxyRef',
  'poolId',
  'provider',
  'country',
  'state',
  'rotation',
  'ip',
  'port',
  'protocol',
  'credentials.username',
  'credentials.password',
  'status',
  'createdAt',
  'expiresAt',
  'expiresIn',
  'lastSwap',
  'lastExtended',
  'swapCount',
  'allowedIps',
  'description',
  'period',
] as const;

export const unitView: View<Unit> = { columns: UNIT_COLUMNS, fields: UNIT_FIELDS, conn: (u) => connString(u), empty: 'No units found.' };

/**
 * `units list` drawn on a terminal: the provider beside the pool, and beside the time left when
 * each unit expires, in local time or (`utc`) in UTC. Only for people: piped rows keep unitView's
 * columns, and json, jsonl and csv the API's ISO 8601 UTC. On a narrow terminal these two go first:
 * the pool names its provider, and the time left says most of what the expiry does; but with --utc
 * the UTC expiry is what was asked for, so it stays and the time left goes in its place.
 */
export function unitTerminalView(utc: boolean): View<Unit> {
  const provider: Column<Unit> = { header: 'provider', value: (u) => u.provider, priority: 6 };
  const expires: Column<Unit> = {
    header: utc ? 'expires (UTC)' : 'expires',
    value: (u) => u.expiresAt,
    format: (u, p) => (ended(u) === undefined ? clockTime(u.expiresAt, utc, Date.now()) : p.dim(clockTime(u.expiresAt, utc, Date.now()))),
    priority: utc ? 1 : 5,
  };
  const after = (header: string) => UNIT_COLUMNS.findIndex((c) => c.header === header) + 1;
  const [pool, left] = [after('pool'), after('time left')];
  const base = utc ? UNIT_COLUMNS.map((c) => (c.header === 'time left' ? { ...c, priority: 5 } : c)) : UNIT_COLUMNS;
  return {
    ...unitView,
    columns: [...base.slice(0, pool), provider, ...base.slice(pool, left), expires, ...base.slice(left)],
  };
}
export const unitDetailView: View<Unit> = { columns: UNIT_DETAIL, fields: UNIT_FIELDS, conn: (u) => connString(u) };

/**
 * `view` for a command that changed or bought the unit: running it again with -o conn would do that
 * again, so a connection hidden to fit the terminal points at reading the unit back instead.
 */
export function changedUnitView(view: View<Unit>): View<Unit> {
  const readBack = 'proxyctl units get <ref> -o conn';
  return { ...view, columns: view.columns?.map((c) => (c.whole ? { ...c, whole: readBack } : c)) };
}

/** A dry run's quote as printed: JSON keeps these keys; tables show them in words. */
export interface QuoteRow {
  poolId?: string;
  refs?: string[];
  period: string;
  protocol?: string;
  unitPrice: number;
  count: number;
  total: number;
  balanceUsd: number;
  balanceAfter: number;
  affordable: boolean;
  /** Only when the profile has a budget or policy: whether this fits it, and what it says. */
  withinBudget?: boolean;
  budget?: string;
  [k: string]: unknown;
}

const usd = (pick: (q: QuoteRow) => number): Pick<Column<QuoteRow>, 'value' | 'format'> => ({
  value: pick,
  format: (q) => money(pick(q)),
});

/** The quote of `units create --dry-run` (pool, protocol) or `units extend --dry-run` (the units). */
export function quoteView(q: QuoteRow): View<QuoteRow> {
  const what: Column<QuoteRow>[] = q.refs
    ? [{ header: 'units', value: (r) => r.refs?.join(', ') }]
    : [
        { header: 'pool', value: (r) => r.poolId },
        { header: 'protocol', value: (r) => r.protocol },
      ];
  return {
    columns: [
      ...what,
      { header: 'period', value: (r) => r.period },
      { header: 'count', value: (r) => r.count },
      { header: 'unit price', ...usd((r) => r.unitPrice) },
      { header: 'total', ...usd((r) => r.total), format: (r, p) => p.bold(money(r.total)) },
      { header: 'balance now', ...usd((r) => r.balanceUsd) },
      { header: 'balance after', ...usd((r) => r.balanceAfter) },
      {
        header: 'affordable',
        value: (r) => (r.affordable ? 'yes' : 'no'),
        format: (r, p) => (r.affordable ? p.green('yes') : p.red('no')),
      },
      ...(q.budget === undefined
        ? []
        : [
            {
              header: 'budget',
              value: (r: QuoteRow) => r.budget,
              format: (r: QuoteRow, p: Paint) => (r.withinBudget ? p.green(String(r.budget)) : p.red(String(r.budget))),
            },
          ]),
    ],
  };
}
