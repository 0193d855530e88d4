// How units look in tables and as connection strings (-o conn).
import { cell, connString, humanDuration, type Column, type View } from '../output/index.js';
import type { Unit } from './types.js';

function timeLeft(u: Unit): number | undefined {
  if (typeof u.expiresIn === 'number') return u.expiresIn;
  if (typeof u.expiresAt === 'string') {
    const t = Date.parse(u.expiresAt);
    if (Number.isFinite(t)) return Math.round((t - Date.now()) / 1000);
  }
  return undefined;
}

export const UNIT_COLUMNS: Column<Unit>[] = [
  { header: 'ref', value: (u) => u.proxyRef, format: (u, p) => p.bold(u.proxyRef), priority: 0 },
  { header: 'pool', value: (u) => u.poolId, priority: 3 },
  { header: 'protocol', value: (u) => u.protocol, priority: 4 },
  {
    header: 'status',
    value: (u) => u.status,
    format: (u, p) => (u.status === 'ACTIVE' ? p.green : u.status === 'EXPIRED' ? p.yellow : p.dim)(cell(u.status)),
  },
  {
    header: 'time left',
    value: (u) => {
      const s = timeLeft(u);
      return s === undefined ? undefined : humanDuration(s);
    },
    priority: 2,
  },
  // What the unit is for: kept, and shortened only as a last resort, pointing at -o conn.
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

export const unitView: View<Unit> = { columns: UNIT_COLUMNS, conn: (u) => connString(u), empty: 'No units found.' };
export const unitDetailView: View<Unit> = { columns: UNIT_DETAIL, conn: (u) => connString(u) };
