// `proxyctl mcp`: the flags become the server's scopes and limits (src/mcp/ serves).
import type { Result } from '../../kit/action.js';
import type { Input } from './serve.command.js';
import { serve } from '../../mcp/server.js';
import { serverOptions } from './server-flags.js';

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  return serve(
    ctx,
    serverOptions(flags, (m) => ctx.warn(m)),
  );
}
