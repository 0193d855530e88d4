// Changing a unit's protocol, for every front door (`units change-protocol`, the agent's
// change_protocol): free, but clients on the old protocol stop working; http_noauth needs exactly
// one whitelisted IP and takes no credentials. Everything is checked here, before any request.
import type { ApiClient } from '../api/client.js';
import { changeUnitProtocol } from '../api/endpoints.js';
import { UsageError } from '../errors.js';
import type { Unit } from './types.js';
import { checkAllowIpsFor, normaliseAllowIps, parseCredentials, parseProtocol } from './validate.js';

/** The change as given (flags, or an agent's arguments in the same words). */
export interface ChangeProtocolFlags {
  protocol?: string | undefined;
  allowIp?: string[] | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

export interface ChangeProtocolBody {
  newProtocol: string;
  allowedIps?: string[];
  credentials?: { username: string; password: string };
}

export const missingProtocol = () =>
  new UsageError('--protocol is required (socks5, http, http_noauth or inject)', {
    hint: 'e.g. proxyctl units change-protocol PRX-123 --protocol http (in a terminal, leave it out to be asked)',
  });

export function parseChangeProtocol(f: ChangeProtocolFlags): ChangeProtocolBody {
  if (f.protocol === undefined) throw missingProtocol();
  const newProtocol = parseProtocol(f.protocol);
  const allowedIps = checkAllowIpsFor(newProtocol, normaliseAllowIps(f.allowIp), 'change-protocol');
  const credentials = parseCredentials(f.username, f.password);
  if (credentials && newProtocol === 'http_noauth') throw new UsageError('http_noauth has no credentials: drop --username/--password');
  return { newProtocol, ...(allowedIps ? { allowedIps } : {}), ...(credentials ? { credentials } : {}) };
}

/** The unit as it is after the change. A second change would switch it again: sent once. */
export async function changeProtocol(api: ApiClient, ref: string, body: ChangeProtocolBody): Promise<Unit> {
  const res = await changeUnitProtocol(api, ref, body, { retry: 'not-sent' });
  return res.data;
}
