// Pool ids and country codes as people type them. Before a request they are normalised where the
// spec's formats allow it: a country code is ISO 3166-1 alpha-2 and a pool id is "country code,
// hyphen, number", so ` us-12 ` is US-12. After a miss, the catalogue is read once and the nearest
// ids it holds are suggested ("no pool US-21; did you mean US-12?"). Reading the catalogue is best
// effort: when it fails (GET /pools is Pro-only), the original error stands.
import { listCatalogue, listPools } from '../api/endpoints.js';
import type { ApiClient } from '../api/index.js';
import { ApiError, UsageError } from '../errors.js';
import type { BaseContext } from '../globals.js';
import type { Pool } from './types.js';

/** The spec's pool id shape; ids of another shape are only trimmed. */
const POOL_ID_SHAPE = /^[A-Za-z]{2}-\d+$/;

export function normalisePoolId(raw: string): string {
  const v = raw.trim();
  return POOL_ID_SHAPE.test(v) ? v.toUpperCase() : v;
}

export function normalisePoolIdFlag(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : normalisePoolId(raw);
}

export function countryCode(value: string | undefined, flag = '--country'): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^[A-Za-z]{2}$/.test(v)) throw new UsageError(`${flag} must be a two-letter ISO country code such as US or DE (got "${value}")`);
  return v.toUpperCase();
}

/** Edit distance (optimal string alignment): insertions, deletions, changes and swapped neighbours cost 1. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (d[i - 2] as number[])[j - 2]! + 1);
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

const sortedChars = (s: string) => [...s].sort().join('');

/**
 * The catalogue ids nearest to `wanted` (case ignored), at most `max`, closest first. Within the
 * same distance an id with the same characters in another order (US-21 for US-12) comes first:
 * swapped keys are the likelier typo. Ids more than a third of their length away (at least 1) are
 * not offered.
 */
function nearestIds(wanted: string, ids: readonly string[], max = 3): string[] {
  const w = wanted.trim().toUpperCase();
  const limit = Math.max(1, Math.floor(w.length / 3));
  return ids
    .map((id, index) => ({
      id,
      index,
      distance: editDistance(w, id.toUpperCase()),
      anagram: sortedChars(w) === sortedChars(id.toUpperCase()),
    }))
    .filter((c) => c.distance <= limit && c.id !== wanted)
    .sort((a, b) => a.distance - b.distance || Number(b.anagram) - Number(a.anagram) || a.index - b.index)
    .slice(0, max)
    .map((c) => c.id);
}

/** "US-12", "US-12 or US-11", "US-12, US-11 or US-13". */
function oneOf(ids: string[]): string {
  return ids.length <= 1 ? (ids[0] ?? '') : `${ids.slice(0, -1).join(', ')} or ${ids[ids.length - 1]}`;
}

/** What a miss is: the message (for the error or a warning) and where to look instead. */
export interface Miss {
  message: string;
  hint: string;
}

async function catalogue(api: ApiClient): Promise<Pool[] | undefined> {
  try {
    return (await listPools(api)).data;
  } catch {
    return undefined;
  }
}

/**
 * "no pool US-21; did you mean US-12?" when `poolId` is not in the catalogue (undefined when it is,
 * or when the catalogue cannot be read). `onlyAvailable` offers only pools that can be bought.
 */
export async function poolMiss(api: ApiClient, poolId: string, onlyAvailable = false): Promise<Miss | undefined> {
  const pools = await catalogue(api);
  if (pools === undefined || pools.some((p) => p.poolId === poolId)) return undefined;
  const near = nearestIds(
    poolId,
    pools.filter((p) => !onlyAvailable || p.available !== false).map((p) => p.poolId),
  );
  const country = near[0] !== undefined && POOL_ID_SHAPE.test(near[0]) ? near[0].slice(0, 2) : undefined;
  return {
    message: near.length > 0 ? `no pool ${poolId}; did you mean ${oneOf(near)}?` : `no pool ${poolId}`,
    hint: country ? `proxyctl pools --country ${country} lists the pools in ${country}` : 'proxyctl pools lists every pool',
  };
}

/** The same API error (status, code, request id, raw object), said with the suggestion. */
function withSuggestion(err: ApiError, miss: Miss): ApiError {
  return new ApiError(
    {
      status: err.status,
      code: err.code,
      type: err.type,
      message: miss.message,
      requestId: err.requestId,
      required: err.required,
      retryAfter: err.retryAfter,
      raw: err.raw,
    },
    miss.hint,
  );
}

/**
 * Runs a request that names a pool or a country; a 404 (other than an unknown unit) that `miss`
 * explains (`poolMiss`, `countryMiss`) is said with its suggestion, still a 404 (exit 5). Any
 * other failure passes through unchanged.
 */
export async function explainingMiss<T>(request: () => Promise<T>, miss: () => Promise<Miss | undefined>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404 || err.code === 'unit_not_found') throw err;
    const said = await miss();
    throw said === undefined ? err : withSuggestion(err, said);
  }
}

/** Country entries' field names are not in the spec: take the ISO-looking code wherever it is. */
export function entryCountryCode(e: Record<string, unknown>): string | undefined {
  for (const k of ['country', 'code', 'countryCode', 'iso']) if (typeof e[k] === 'string') return e[k] as string;
  return Object.values(e).find((v): v is string => typeof v === 'string' && /^[A-Z]{2}$/.test(v));
}

/** Country codes the catalogue has pools in (undefined when it cannot be read). */
async function countryCodes(api: ApiClient): Promise<string[] | undefined> {
  try {
    const body = await listCatalogue(api, '/countries');
    return body.data.map(entryCountryCode).filter((c): c is string => c !== undefined);
  } catch {
    return undefined;
  }
}

/**
 * "no pools in XX; did you mean US?" when the catalogue has no pools in `country` (undefined when
 * it has, or when the country list cannot be read). Said after an empty, country-filtered list.
 */
export async function countryMiss(api: ApiClient, country: string): Promise<Miss | undefined> {
  const codes = await countryCodes(api);
  if (codes === undefined || codes.length === 0 || codes.includes(country)) return undefined;
  // UK is the reserved code people type for the United Kingdom; ISO's is GB.
  const near = country === 'UK' && codes.includes('GB') ? ['GB'] : nearestIds(country, codes);
  const listed = `countries with pools: ${codes.join(', ')}`;
  return {
    message: near.length > 0 ? `no pools in ${country}; did you mean ${oneOf(near)}? (${listed})` : `no pools in ${country} (${listed})`,
    hint: 'proxyctl countries lists the countries with their pool counts',
  };
}

/**
 * A request filtered by `country`: a 404 for a country the catalogue lacks says the nearest codes
 * (exit 5), and so does an empty answer, as a warning (the empty list still prints, exit 0).
 */
export async function byCountry<T>(
  ctx: Pick<BaseContext, 'warn'>,
  api: ApiClient,
  country: string | undefined,
  request: () => Promise<T[]>,
): Promise<T[]> {
  if (country === undefined) return request();
  const rows = await explainingMiss(request, () => countryMiss(api, country));
  if (rows.length === 0) {
    const miss = await countryMiss(api, country);
    if (miss !== undefined) ctx.warn(miss.message);
  }
  return rows;
}
