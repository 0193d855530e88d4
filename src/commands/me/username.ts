// `proxyctl me username set|clear`: the fixed proxy username. Its path is not published, so it
// comes from resolveOperation() (the server's openapi.json, else the contract's default).
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { resolveOperation } from '../../api/operations.js';
import { withSpinner } from '../../output/index.js';
import * as shapes from '../../api/shapes.js';

export function checkProxyUsername(name: string): string {
  if (name.length < 3 || name.length > 32) throw new UsageError(`the proxy username must be 3 to 32 characters (got ${name.length})`);
  if (/[\s:@]/.test(name)) throw new UsageError('the proxy username cannot contain spaces, ":" or "@"');
  return name;
}

/** Pins `proxyUsername` (null: clears the pin), says so on stderr, and returns the server's answer. */
export async function pinProxyUsername(proxyUsername: string | null, ctx: Context): Promise<unknown> {
  const api = await ctx.api();
  const op = await resolveOperation(api, 'pinUsername');
  // Setting a value is idempotent, so a PUT may be retried like a read; any other method only
  // when the request provably never left.
  const retry = op.method === 'PUT' ? 'read' : 'not-sent';
  const r = await withSpinner(ctx, 'Saving…', () =>
    api.request(op.method, op.path, shapes.usernamePin, { body: { proxyUsername }, retry }),
  );
  ctx.notice(
    proxyUsername === null
      ? 'Proxy username cleared: new units get a random login.'
      : `Proxy username pinned to "${proxyUsername}" for units created from now on.`,
  );
  return r.data ?? { proxyUsername };
}
