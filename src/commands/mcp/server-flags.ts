// The flags of `proxyctl mcp` as the server's options: read by `mcp` itself and checked by
// `mcp install` before it writes them into a client's configuration.
import type { Input } from './serve.command.js';
import { parseInteger } from '../../kit/options.js';
import { parseUsd } from '../../units/quote.js';
import type { Scope, ServerOptions } from '../../mcp/session.js';

export function serverOptions(flags: Input['flags']): ServerOptions {
  const scopes = new Set<Scope>(['read']);
  if (!flags.readOnly) {
    if (flags.allowWrite) scopes.add('write');
    if (flags.allowSpend) scopes.add('pays');
  }
  return {
    scopes,
    budgetUsd: parseUsd(flags.budget, '--budget'),
    revealCredentials: flags.revealCredentials === true,
    quoteTtlMs: parseInteger(flags.quoteTtl, '--quote-ttl', 0, 3600) * 1000,
  };
}
