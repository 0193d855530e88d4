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

/** Catalogue entries (pools, countries, states, providers) → the values each kind completes with. */
export function catalogueValues(rows: readonly unknown[]): NonNullable<Seen['add']> {
  const pick = (...fields: string[]) =>
    rows.flatMap((r) => {
      if (r === null || typeof r !== 'object') return [];
      const o = r as Record<string, unknown>;
      const f = fields.find((k) => typeof o[k] === 'string' && o[k] !== '');
      return f ? [o[f] as string] : [];
    });
  return {
    pools: pick('poolId'),
    countries: pick('country', 'code', 'countryCode'),
    states: pick('state', 'slug'),
    providers: pick('provider'),
  };
}
