// The pool list with its filters, for every front door (`proxyctl pools`, the agent's list_pools):
// the country code checked before any request, and a country the catalogue has no pools in said
// with the nearest codes it has (byCountry).
import type { ApiClient } from '../api/client.js';
import { listPools } from '../api/endpoints.js';
import type { BaseContext } from '../globals.js';
import { byCountry, countryCode } from './catalogue-ids.js';
import type { Pool } from './types.js';

export interface PoolFilters {
  provider?: string | undefined;
  country?: string | undefined;
  state?: string | undefined;
  rotation?: string | undefined;
}

/** The filters checked (the country code), before any request. */
export function parsePoolFilters(f: PoolFilters): PoolFilters {
  return { provider: f.provider, country: countryCode(f.country), state: f.state, rotation: f.rotation };
}

/**
 * The pools that match, and the price schedule the server gives for all of them (when it gives one).
 * `around` wraps the request (the CLI's spinner); an empty country is said through `ctx.warn` after it.
 */
export async function findPools(
  api: ApiClient,
  f: PoolFilters,
  ctx: Pick<BaseContext, 'warn'>,
  around: <T>(request: () => Promise<T>) => Promise<T> = (request) => request(),
): Promise<{ data: Pool[]; prices: Record<string, unknown> | undefined }> {
  let prices: Record<string, unknown> | undefined;
  const data = await byCountry(ctx, api, f.country, async () => {
    const body = await around(() => listPools(api, { provider: f.provider, country: f.country, state: f.state, rotation: f.rotation }));
    prices = body?.prices;
    return Array.isArray(body?.data) ? body.data : [];
  });
  return { data, prices };
}
