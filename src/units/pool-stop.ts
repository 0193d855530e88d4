// Extending a batch whose units' pools are known: a pool that keeps failing upstream stops its
// own remaining units, as `units create` stops a batch on its one pool, while the other pools go on.
import { ApiError, NetworkError } from '../errors.js';
import { UpstreamBreaker } from './bulk.js';
import type { ExtendResult } from './types.js';

/** One unit's extension, attempted or refused by `stopFailingPools`. */
export type ExtendOne = (ref: string, extend: () => Promise<ExtendResult>) => Promise<ExtendResult>;

/**
 * Per pool (from `pools`, ref → poolId), after `limit` extensions in a row failed with a refunded
 * 503, the pool's remaining units are not tried: each fails at once, nothing charged. A unit whose
 * pool is not known is always tried.
 */
export function stopFailingPools(pools: ReadonlyMap<string, string> | undefined, limit?: number): ExtendOne {
  const breakers = new Map<string, UpstreamBreaker>();
  return async (ref, extend) => {
    const pool = pools?.get(ref);
    if (pool === undefined) return extend();
    const breaker = breakers.get(pool) ?? new UpstreamBreaker(limit);
    breakers.set(pool, breaker);
    if (breaker.signal.aborted)
      throw new ApiError(
        {
          status: 503,
          answered: false,
          code: 'pool_failing_upstream',
          message: `${ref} was not tried: pool ${pool} is failing upstream (${breaker.refunded} refunded 503s); nothing charged`,
        },
        'extend it later, or swap it to another pool first (proxyctl units swap)',
      );
    try {
      const done = await extend();
      breaker.record(true);
      return done;
    } catch (err) {
      // extendSafely reports a refunded 503 as "not extended" (expiry read back unchanged), with the
      // API's answer as its cause; "could not tell" (extend_unknown) is not a refund and not counted.
      const refunded = err instanceof NetworkError && err.code !== 'extend_unknown' && err.cause instanceof ApiError;
      breaker.record(false, refunded ? err.cause : err);
      throw err;
    }
  };
}
