// `units swap REF --same-country`: which pool a failing unit moves to. A pure choice over what the
// API listed, so the rule is in one place and the command only reads, tells and swaps.
import type { Pool } from './types.js';

/** Where the unit is now: its pool, and that pool's country, state and provider. */
export interface Placement {
  poolId: string | undefined;
  country: string;
  state: string | null | undefined;
  provider: string | undefined;
}

/**
 * The best available pool in the unit's country, never its own pool. In order: the same state
 * (when the unit has one), then another provider than the failing one, then the lowest pool id
 * (the API's own order), so the same catalogue always gives the same answer. Undefined: none.
 */
export function pickSameCountry(from: Placement, pools: readonly Pool[]): Pool | undefined {
  const rank = (p: Pool) => [from.state && p.state === from.state ? 0 : 1, from.provider && p.provider === from.provider ? 1 : 0];
  const candidates = pools.filter((p) => p.country === from.country && p.poolId !== from.poolId && p.available !== false);
  return candidates
    .map((p) => ({ p, r: rank(p) }))
    .sort((a, b) => a.r[0]! - b.r[0]! || a.r[1]! - b.r[1]! || a.p.poolId.localeCompare(b.p.poolId, 'en', { numeric: true }))[0]?.p;
}

/** "same country US, state california, provider T-Mobile": why this pool, for the notice. */
export function describeChoice(to: Pool): string {
  return [`same country ${to.country}`, to.state && `state ${to.state}`, to.provider && `provider ${to.provider}`]
    .filter(Boolean)
    .join(', ');
}
