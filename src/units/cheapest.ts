// `units create --country CC [--state S] [--provider P]`: buying by place instead of by pool id.
// The pool is the cheapest available one that matches, for the period being bought, so the same
// catalogue always gives the same answer; the purchase then goes through the one purchase path
// (planPurchase, createBatch) exactly as `--pool` would.
import { listPools } from '../api/endpoints.js';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../errors.js';
import { money } from '../output/index.js';
import type * as shapes from '../api/shapes.js';
import { countryMiss, explainingMiss } from './catalogue-ids.js';
import type { Pool } from './types.js';
import { naturalCompare } from './sort.js';

/** Where to buy: a country (ISO code, checked), narrowed by a state slug and a carrier. */
export interface Place {
  country: string;
  state?: string | undefined;
  provider?: string | undefined;
}

export interface Pick {
  pool: Pool;
  price: number;
  /** How many pools matched and were available (the pick among them). */
  among: number;
}

/**
 * The available pool of `pools` at `place` with the lowest price for `period` (a pool's own price
 * list, else the list's); ties go to the lowest pool id. Undefined when none is available.
 */
export function pickCheapest(
  pools: readonly Pool[],
  listPrices: shapes.Prices | undefined,
  period: string,
  place: Place,
): Pick | undefined {
  const same = (a: unknown, b: string | undefined) => b === undefined || (typeof a === 'string' && a.toLowerCase() === b.toLowerCase());
  const priced = pools.flatMap((pool) => {
    if (pool.available === false || !same(pool.country, place.country) || !same(pool.state, place.state)) return [];
    if (!same(pool.provider, place.provider)) return [];
    const price = (pool.prices ?? listPrices)?.[period];
    return typeof price === 'number' && Number.isFinite(price) ? [{ pool, price }] : [];
  });
  priced.sort((a, b) => a.price - b.price || naturalCompare(a.pool.poolId, b.pool.poolId));
  const first = priced[0];
  return first && { ...first, among: priced.length };
}

/** The pools at `place` as the API filters them (a country the catalogue lacks: exit 5 with the nearest). */
export async function poolsAt(api: ApiClient, place: Place): Promise<{ pools: Pool[]; prices: shapes.Prices | undefined }> {
  const res = await explainingMiss(
    () => listPools(api, { country: place.country, state: place.state, provider: place.provider }),
    () => countryMiss(api, place.country),
  );
  return { pools: res.data, prices: res.prices };
}

/** The cheapest available pool at `place` for `period` (of `at`, else as listed now), or exit 5 saying what matched nothing. */
export async function cheapestPoolAt(
  api: ApiClient,
  place: Place,
  period: string,
  at?: Awaited<ReturnType<typeof poolsAt>>,
): Promise<Pick & { pools: Pool[] }> {
  const { pools, prices } = at ?? (await poolsAt(api, place));
  const pick = pickCheapest(pools, prices, period, place);
  if (pick) return { ...pick, pools };
  // No pool at all: a country the catalogue lacks is a typo, said with the nearest codes.
  const miss = pools.length === 0 ? await countryMiss(api, place.country) : undefined;
  throw new ApiError(
    {
      status: 404,
      answered: false,
      code: 'no_pool_matches',
      message: `${miss?.message ?? `no available pool ${describePlace(place)}`}; nothing was bought`,
    },
    miss?.hint ?? `proxyctl pools --country ${place.country} lists its pools`,
  );
}

/** "in US, state texas, provider Verizon" */
export function describePlace(place: Place): string {
  return [`in ${place.country}`, place.state && `state ${place.state}`, place.provider && `provider ${place.provider}`]
    .filter(Boolean)
    .join(', ');
}

/** "US-14, the cheapest of 3 available pools in US, state texas (12.00 USD for 7d)" */
export function describePick(pick: Pick, place: Place, period: string): string {
  const of =
    pick.among === 1
      ? `the one available pool ${describePlace(place)}`
      : `the cheapest of ${pick.among} available pools ${describePlace(place)}`;
  return `${pick.pool.poolId}, ${of} (${money(pick.price)} for ${period})`;
}
