// The per-pool stop of an extend batch in-process: which failures count as a refunded 503, and
// that a stopped pool refuses its remaining units without trying them while other pools go on.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/errors.js';
import { stopFailingPools } from '../../src/units/pool-stop.js';
import type { ExtendResult } from '../../src/units/types.js';

const upstream = () => new ApiError({ status: 503, code: 'upstream_unreachable', message: 'upstream is unreachable' });
/** What extendSafely throws after a 503 when the expiry read back is unchanged: refunded. */
const refunded = (ref: string) =>
  new NetworkError(`${ref} was not extended; nothing was charged`, { code: 'upstream_unreachable', cause: upstream() });
/** What it throws when the read-back failed too: maybe charged, so not a refund. */
const unknown = (ref: string) =>
  new NetworkError(`could not tell whether ${ref} was extended`, { code: 'extend_unknown', cause: upstream() });
const extended = (ref: string): ExtendResult => ({ proxyRef: ref, expiresAt: '2030-01-01T00:00:00Z', extended: true });

/** Calls `extendOne` for each ref in order: what it returned or the error's code, and the refs actually tried. */
async function attempt(extendOne: ReturnType<typeof stopFailingPools>, refs: string[], fail: (ref: string) => Error | undefined) {
  const tried: string[] = [];
  const results: string[] = [];
  for (const ref of refs) {
    try {
      await extendOne(ref, async () => {
        tried.push(ref);
        const err = fail(ref);
        if (err) throw err;
        return extended(ref);
      });
      results.push('ok');
    } catch (err) {
      results.push((err as NetworkError | ApiError).code);
    }
  }
  return { tried, results };
}

describe('stopFailingPools', () => {
  const pools = new Map([
    ['A1', 'US-1'],
    ['A2', 'US-1'],
    ['A3', 'US-1'],
    ['A4', 'US-1'],
    ['B1', 'US-2'],
  ]);

  it('after 3 refunded 503s in a row, the pool’s next unit is refused untried; another pool is still tried', async () => {
    const { tried, results } = await attempt(stopFailingPools(pools), ['A1', 'A2', 'A3', 'A4', 'B1'], (ref) =>
      ref.startsWith('A') ? refunded(ref) : undefined,
    );
    expect(tried).toEqual(['A1', 'A2', 'A3', 'B1']);
    expect(results).toEqual(['upstream_unreachable', 'upstream_unreachable', 'upstream_unreachable', 'pool_failing_upstream', 'ok']);
  });

  it('the refusal is a 503 that names the unit, its pool and the refunds, nothing charged', async () => {
    const extendOne = stopFailingPools(pools);
    await attempt(extendOne, ['A1', 'A2', 'A3'], refunded);
    const err = await extendOne('A4', async () => extended('A4')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 503,
      code: 'pool_failing_upstream',
      message: 'A4 was not tried: pool US-1 is failing upstream (3 refunded 503s); nothing charged',
      hint: 'extend it later, or swap it to another pool first (proxyctl units swap)',
    });
  });

  it('a success between refunds starts the count again', async () => {
    const { tried } = await attempt(stopFailingPools(pools), ['A1', 'A2', 'A3', 'A4'], (ref) => (ref === 'A3' ? undefined : refunded(ref)));
    expect(tried).toEqual(['A1', 'A2', 'A3', 'A4']);
  });

  it('"could not tell" (extend_unknown) is not a refund and stops nothing', async () => {
    const { tried } = await attempt(stopFailingPools(pools), ['A1', 'A2', 'A3', 'A4'], unknown);
    expect(tried).toEqual(['A1', 'A2', 'A3', 'A4']);
  });

  it('a unit whose pool is not known is always tried', async () => {
    const { tried } = await attempt(stopFailingPools(undefined), ['A1', 'A2', 'A3', 'A4'], refunded);
    expect(tried).toEqual(['A1', 'A2', 'A3', 'A4']);
  });

  it('the limit can be set', async () => {
    const { tried } = await attempt(stopFailingPools(pools, 1), ['A1', 'A2', 'B1'], (ref) => (ref === 'A1' ? refunded(ref) : undefined));
    expect(tried).toEqual(['A1', 'B1']);
  });
});
