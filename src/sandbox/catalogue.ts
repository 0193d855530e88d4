// The seeded catalogue: pools over several countries, providers, states and rotations, some
// unavailable. Prices are one schedule for every pool (the API shows one `prices` object beside
// the pool list), with the account's discount applied: what is shown is what is debited. A test
// may give a pool its own schedule (PoolRecord.prices) to tell pools apart by price.
import { seededRandom } from './random.js';

export const PERIODS = ['3h', '12h', '24h', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];
export type Prices = Record<Period, number>;

export const PERIOD_SECONDS: Record<Period, number> = {
  '3h': 3 * 3600,
  '12h': 12 * 3600,
  '24h': 24 * 3600,
  '7d': 7 * 86400,
  '30d': 30 * 86400,
};

/** List prices before the reseller discount, in USD. */
export const LIST_PRICES: Prices = { '3h': 1.5, '12h': 3, '24h': 5, '7d': 25, '30d': 80 };

export interface Pool {
  poolId: string;
  provider: string;
  country: string;
  state: string | null;
  rotation: string | null;
  available: boolean;
}

/** Pool plus the host its units connect to (not part of the API shape). */
export interface PoolRecord extends Pool {
  host: string;
  /**
   * Sandbox-only, for tests of choosing by price: the pool's own price schedule, shown on the pool
   * and charged for its units instead of the account's (absent: the account's, as always).
   */
  prices?: Prices;
}

interface CountrySeed {
  code: string;
  name: string;
  providers: string[];
  states: (string | null)[];
  pools: number;
}

const COUNTRIES: CountrySeed[] = [
  {
    code: 'US',
    name: 'United States',
    providers: ['Verizon', 'T-Mobile', 'AT&T'],
    states: ['california', 'texas', 'new-york', 'florida'],
    pools: 9,
  },
  { code: 'GB', name: 'United Kingdom', providers: ['Vodafone', 'EE', 'Three'], states: ['england', 'scotland'], pools: 6 },
  { code: 'DE', name: 'Germany', providers: ['Telekom', 'Vodafone', 'O2'], states: ['bavaria', 'berlin', 'hesse'], pools: 6 },
  { code: 'FR', name: 'France', providers: ['Orange', 'SFR', 'Bouygues'], states: [null], pools: 5 },
  { code: 'NL', name: 'Netherlands', providers: ['KPN', 'Odido'], states: [null], pools: 4 },
  { code: 'CA', name: 'Canada', providers: ['Rogers', 'Bell'], states: ['ontario', 'quebec'], pools: 4 },
  { code: 'BR', name: 'Brazil', providers: ['Vivo', 'Claro'], states: ['sao-paulo'], pools: 3 },
];

const ROTATIONS: (string | null)[] = [null, '5m', '10m', '30m', '60m'];

export const COUNTRY_NAMES: Record<string, string> = Object.fromEntries(COUNTRIES.map((c) => [c.code, c.name]));

/** 37 pools over 7 countries. Numbers start at 11 so poolId sorts the same as text and as numbers. */
export function buildCatalogue(seed: number): PoolRecord[] {
  const rnd = seededRandom(seed);
  const pools: PoolRecord[] = [];
  let hostIndex = 0;
  for (const c of COUNTRIES) {
    for (let i = 0; i < c.pools; i++) {
      hostIndex++;
      pools.push({
        poolId: `${c.code}-${11 + i}`,
        provider: c.providers[i % c.providers.length]!,
        country: c.code,
        state: c.states[i % c.states.length] ?? null,
        rotation: ROTATIONS[Math.floor(rnd() * ROTATIONS.length)] ?? null,
        // The first pool of every country stays available so examples always have a pool to buy.
        available: i === 0 ? true : rnd() > 0.2,
        host: `198.51.${100 + Math.floor(hostIndex / 250)}.${(hostIndex % 250) + 1}`,
      });
    }
  }
  return pools.sort((a, b) => comparePoolIds(a.poolId, b.poolId));
}

export function comparePoolIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function publicPool(p: PoolRecord): Pool {
  return { poolId: p.poolId, provider: p.provider, country: p.country, state: p.state, rotation: p.rotation, available: p.available };
}

export function discountedPrices(discountPercent: number): Prices {
  const out = {} as Prices;
  for (const p of PERIODS) out[p] = Math.round(LIST_PRICES[p] * (100 - discountPercent)) / 100;
  return out;
}

export function isPeriod(v: unknown): v is Period {
  return typeof v === 'string' && (PERIODS as readonly string[]).includes(v);
}
