// Prices, pools, providers, countries and states (spec §4.2).
import { COUNTRY_NAMES, publicPool, type PoolRecord } from '../catalogue.js';
import { ApiFailure, type ApiRequest, type Reply } from '../http.js';
import { queryValue } from '../validate.js';
import type { World } from '../world.js';

/** A pool as the API shows it: one flagged down by server.down is not available until server.up. */
function shownPool(w: World, p: PoolRecord) {
  const pool = publicPool(p);
  return { ...pool, available: pool.available && !w.poolDown(p.poolId), prices: p.prices ?? w.prices };
}

export function prices(w: World): Reply {
  return { status: 200, body: { prices: w.prices } };
}

export function listPools(w: World, req: ApiRequest): Reply {
  const q = req.query;
  const want = (name: string) => queryValue(q, name)?.toLowerCase();
  const provider = want('provider');
  const country = want('country');
  const state = want('state');
  const rotation = want('rotation');
  const data = w.pools
    .filter(
      (p) =>
        (provider === undefined || p.provider.toLowerCase() === provider) &&
        (country === undefined || p.country.toLowerCase() === country) &&
        (state === undefined || (p.state ?? '').toLowerCase() === state) &&
        (rotation === undefined || (p.rotation ?? '').toLowerCase() === rotation),
    )
    .map((p) => shownPool(w, p));
  return { status: 200, body: { data, prices: w.prices } };
}

export function getPool(w: World, req: ApiRequest): Reply {
  const p = w.poolById.get(req.params.poolId ?? '');
  if (!p) throw new ApiFailure(404, 'pool_not_found', `pool ${String(req.params.poolId)} does not exist`);
  return { status: 200, body: shownPool(w, p) };
}

function countBy<K extends string>(keys: K[]): Map<K, number> {
  const m = new Map<K, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

export function providers(w: World): Reply {
  const m = countBy(w.pools.map((p) => p.provider));
  const data = [...m].sort(([a], [b]) => a.localeCompare(b)).map(([provider, poolCount]) => ({ provider, poolCount }));
  return { status: 200, body: { data } };
}

export function countries(w: World): Reply {
  const m = countBy(w.pools.map((p) => p.country));
  const data = [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([country, poolCount]) => ({ country, name: COUNTRY_NAMES[country] ?? country, poolCount }));
  return { status: 200, body: { data } };
}

export function states(w: World, req: ApiRequest): Reply {
  const country = queryValue(req.query, 'country')?.toUpperCase();
  const pools = w.pools.filter((p) => p.state !== null && (country === undefined || p.country === country));
  const m = countBy(pools.map((p) => `${p.country}/${p.state}`));
  const data = [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, poolCount]) => {
      const [c, s] = k.split('/') as [string, string];
      return { country: c, state: s, poolCount };
    });
  return { status: 200, body: { data } };
}
