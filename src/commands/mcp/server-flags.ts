// The flags of `proxyctl mcp` as the server's options: read by `mcp` itself and checked by
// `mcp install` before it writes them into a client's configuration.
import type { Input } from './serve.command.js';
import { parseInteger } from '../../kit/options.js';
import { parseUsd } from '../../units/quote.js';
import type { Scope, ServerOptions } from '../../mcp/session.js';

/** The shortest quote life: an agent pays a quote a model's turn after it was given. */
export const MIN_QUOTE_TTL_S = 10;
export const MAX_QUOTE_TTL_S = 3600;

/** `warn` is told of a flag given and overruled (--read-only beside --allow-write or --allow-spend). */
export function serverOptions(flags: Input['flags'], warn?: (message: string) => void): ServerOptions {
  const scopes = new Set<Scope>(['read']);
  if (!flags.readOnly) {
    if (flags.allowWrite) scopes.add('write');
    if (flags.allowSpend) scopes.add('pays');
  } else {
    const dropped = [flags.allowWrite && '--allow-write', flags.allowSpend && '--allow-spend'].filter(Boolean);
    if (dropped.length > 0)
      warn?.(`--read-only wins over ${dropped.join(' and ')}: this server lists only the read tools (leave out --read-only to allow more)`);
  }
  return {
    scopes,
    budgetUsd: parseUsd(flags.budget, '--budget'),
    revealCredentials: flags.revealCredentials === true,
    quoteTtlMs: parseInteger(flags.quoteTtl, '--quote-ttl', MIN_QUOTE_TTL_S, MAX_QUOTE_TTL_S) * 1000,
  };
}
