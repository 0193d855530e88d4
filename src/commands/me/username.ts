// `proxyctl me username set|clear`: the fixed proxy username. Its path is not published, so it
// comes from resolveOperation() (the server's openapi.json, else the contract's default).
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { pinProxyUsername as pin } from '../../api/endpoints.js';
import { withSpinner } from '../../output/index.js';

export function checkProxyUsername(name: string): string {
  if (name.length < 3 || name.length > 32) throw new UsageError(`the proxy username must be 3 to 32 characters (got ${name.length})`);
  if (/[\s:@]/.test(name)) throw new UsageError('the proxy username cannot contain spaces, ":" or "@"');
  return name;
}

/** Pins `proxyUsername` (null: clears the pin), says so on stderr, and returns the server's answer. */
export async function pinProxyUsername(proxyUsername: string | null, ctx: Context): Promise<unknown> {
  const api = await ctx.api();
  const r = await withSpinner(ctx, 'Saving…', () => pin(api, proxyUsername));
  ctx.notice(
    proxyUsername === null
      ? 'Proxy username cleared: new units get a random login.'
      : `Proxy username pinned to "${proxyUsername}" for units created from now on.`,
  );
  return r.data ?? { proxyUsername };
}
