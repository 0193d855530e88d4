// `proxyctl mcp`: the flags become the server's scopes and limits (src/mcp/ serves).
import type { Result } from '../../kit/action.js';
import type { Input } from './serve.command.js';
import { parseInteger } from '../../kit/options.js';
import { parseUsd } from '../../units/quote.js';
import { serve } from '../../mcp/server.js';
import type { Scope } from '../../mcp/tool.js';

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const scopes = new Set<Scope>(['read']);
  if (!flags.readOnly) {
    if (flags.allowWrite) scopes.add('write');
    if (flags.allowSpend) scopes.add('pays');
  }
  return serve(ctx, {
    scopes,
    budgetUsd: parseUsd(flags.budget, '--budget'),
    revealCredentials: flags.revealCredentials === true,
    quoteTtlMs: parseInteger(flags.quoteTtl, '--quote-ttl', 0, 3600) * 1000,
  });
}
