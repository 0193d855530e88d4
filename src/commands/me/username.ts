// `proxyctl me username set|clear`: the fixed proxy username. Its path is not published, so it
// comes from resolveOperation() (the server's openapi.json, else the contract's default).
import type { Input as SetInput } from './username-set.command.js';
import type { Input as ClearInput } from './username-clear.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { resolveOperation } from '../../api/operations.js';
import { assertFormats, printObject, withSpinner } from '../../output/index.js';
import * as shapes from '../../api/shapes.js';

export function checkProxyUsername(name: string): string {
  if (name.length < 3 || name.length > 32) throw new UsageError(`the proxy username must be 3 to 32 characters (got ${name.length})`);
  if (/[\s:@]/.test(name)) throw new UsageError('the proxy username cannot contain spaces, ":" or "@"');
  return name;
}

export async function run(proxyUsername: string | null, ctx: Context): Promise<unknown> {
  const api = await ctx.api();
  const op = await resolveOperation(api, 'pinUsername');
  // Setting a value is idempotent, so a PUT may be retried like a read; any other method only
  // when the request provably never left.
  const retry = op.method === 'PUT' ? 'read' : 'not-sent';
  const r = await withSpinner(ctx, 'Saving…', () =>
    api.request(op.method, op.path, shapes.usernamePin, { body: { proxyUsername }, retry }),
  );
  return r.data ?? { proxyUsername };
}

async function apply(ctx: Context, name: string | null): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const result = await run(name, ctx);
  ctx.notice(
    name === null
      ? 'Proxy username cleared: new units get a random login.'
      : `Proxy username pinned to "${name}" for units created from now on.`,
  );
  await printObject(ctx, result);
  return 0;
}

export function set({ args: [name], ctx }: SetInput): Promise<number> {
  return apply(ctx, checkProxyUsername(name));
}

export function clear({ ctx }: ClearInput): Promise<number> {
  return apply(ctx, null);
}
