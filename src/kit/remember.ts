// Commands record the values they saw (pool ids, countries, unit refs) for shell completion.
// Never fails a command: a cache that cannot be written only costs completion.
import type { Context } from '../context/index.js';
import type { Seen } from '../config/values-cache.js';

export async function remember(ctx: Context, seen: Seen): Promise<void> {
  try {
    const { recordValues } = await import('../config/values-cache.js');
    await recordValues(ctx.io.env, { profile: ctx.globals.profile, baseUrl: ctx.globals.baseUrl }, seen, ctx.now().getTime());
  } catch {
    // Read-only or full disk: TAB offers less, the command is unaffected.
  }
}

/**
 * Catalogue entries (pools, countries, states, providers) → the values each kind completes with;
 * pools also say whether they are available now, so `units swap … --pool` can leave out those that are not.
 */
export function catalogueSeen(rows: readonly unknown[]): Seen {
  const entries = rows.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object');
  const pick = (from: readonly Record<string, unknown>[], ...fields: string[]) =>
    from.flatMap((o) => {
      const f = fields.find((k) => typeof o[k] === 'string' && o[k] !== '');
      return f ? [o[f] as string] : [];
    });
  // A pool entry carries `available`; country, state and provider entries do not.
  const pools = entries.filter((o) => typeof o.available === 'boolean');
  return {
    add: {
      pools: pick(entries, 'poolId'),
      countries: pick(entries, 'country', 'code', 'countryCode'),
      states: pick(entries, 'state', 'slug'),
      providers: pick(entries, 'provider'),
      unavailablePools: pick(
        pools.filter((o) => o.available === false),
        'poolId',
      ),
    },
    remove: {
      unavailablePools: pick(
        pools.filter((o) => o.available === true),
        'poolId',
      ),
    },
  };
}

/** Units a command saw → their refs, and the pool each is in. */
export function unitsSeen(units: readonly ({ proxyRef?: unknown; poolId?: unknown } | undefined)[]): Seen {
  const seen = units.filter((u) => u !== undefined);
  return {
    add: { units: seen.map((u) => u.proxyRef) },
    unitPools: seen.map((u) => ({ ref: u.proxyRef, pool: u.poolId })),
  };
}
