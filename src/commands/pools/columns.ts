// Pool columns shared by `pools list` and `pools get`.
import { cell, money, PERIODS, type Column } from '../../output/index.js';
import type { Pool } from '../../units/types.js';

export type { Pool };

export const POOL_KEYS = ['poolId', 'provider', 'country', 'state', 'rotation', 'available', 'prices'];

/** A pool's csv columns (spec 2.4), a price per period: the same for every pool. */
export const POOL_FIELDS = [...POOL_KEYS.filter((k) => k !== 'prices'), ...PERIODS.map((p) => `prices.${p}`)];

export function poolColumns(fallbackPrices: Record<string, unknown> | undefined): Column<Pool>[] {
  const priceOf = (p: Pool, period: string) => (p.prices && typeof p.prices === 'object' ? p.prices[period] : fallbackPrices?.[period]);
  return [
    { header: 'pool', value: (p) => p.poolId, format: (p, paint) => paint.bold(cell(p.poolId)) },
    { header: 'provider', value: (p) => p.provider },
    { header: 'country', value: (p) => p.country },
    { header: 'state', value: (p) => p.state, priority: 3 },
    { header: 'rotation', value: (p) => p.rotation, priority: 3 },
    {
      header: 'available',
      value: (p) => p.available,
      format: (p, paint) => (p.available === true ? paint.green('yes') : p.available === false ? paint.red('no') : '-'),
    },
    ...PERIODS.map((period, i) => ({
      header: period,
      // The shortest period's price stays longest when the table must fit the terminal.
      priority: i === 0 ? 1 : 2,
      value: (p: Pool) => priceOf(p, period),
      format: (p: Pool) => {
        const v = priceOf(p, period);
        return typeof v === 'number' ? money(v, '').trim() : cell(v);
      },
    })),
  ];
}
