// What `units create` buys, validated once: the flags as given, or as the guided flow filled
// them in (it answers with the same flags), go through `parseCreateFlags` either way.
import { UsageError } from '../errors.js';
import { parseInteger } from '../globals.js';
import type { CreateBody } from './types.js';
import { normalisePoolId } from './catalogue-ids.js';
import { parseCustomer, withCustomer } from '../ledger/customer.js';
import {
  checkAllowIpsFor,
  MAX_COUNT,
  normaliseAllowIps,
  parseCredentials,
  parseIdempotencyKey,
  parsePeriod,
  parseProtocol,
} from './validate.js';

/** The create flags as commander hands them over (strings, unparsed). */
export interface CreateFlags {
  pool?: string;
  period?: string;
  protocol?: string;
  username?: string;
  password?: string;
  allowIp?: string[];
  count?: string;
  idempotencyKey?: string;
  dryRun?: boolean;
  description?: string;
  customer?: string;
}

export interface CreateInput {
  body: CreateBody;
  count: number;
  baseKey: string | undefined;
  dryRun: boolean;
  /** Written on each unit right after its purchase: --description, with --customer's tag. */
  description: string | undefined;
}

/** Validated, but the pool and the period may still be missing (the guided flow asks for them). */
export type PartialCreateInput = Omit<CreateInput, 'body'> & { body: Partial<CreateBody> };

export function parseCreateFlags(f: CreateFlags): PartialCreateInput {
  const protocol = f.protocol === undefined ? undefined : parseProtocol(f.protocol);
  const ips = normaliseAllowIps(f.allowIp);
  const allowedIps = checkAllowIpsFor(protocol ?? 'socks5', ips, 'units create');
  const credentials = parseCredentials(f.username, f.password);
  if (credentials && protocol === 'http_noauth') throw new UsageError('http_noauth units have no credentials: drop --username/--password');
  const body: Partial<CreateBody> = {
    ...(f.pool !== undefined ? { poolId: normalisePoolId(f.pool) } : {}),
    ...(f.period !== undefined ? { period: parsePeriod(f.period) } : {}),
    ...(protocol ? { protocol } : {}),
    ...(credentials ? { credentials } : {}),
    ...(allowedIps ? { allowedIps } : {}),
  };
  if (body.poolId === '') throw new UsageError('--pool needs a pool id (see proxyctl pools)');
  return {
    body,
    count: parseInteger(f.count, '--count', 1, MAX_COUNT) ?? 1,
    baseKey: parseIdempotencyKey(f.idempotencyKey),
    dryRun: f.dryRun === true,
    description: parseDescription(f.description, f.customer),
  };
}

/** The description a unit is given: --description's text, tagged `customer=NAME` by --customer. */
export function parseDescription(text: string | undefined, customer: string | undefined): string | undefined {
  return customer !== undefined ? withCustomer(text, parseCustomer(customer)) : text;
}

export function isComplete(input: PartialCreateInput): input is CreateInput {
  return input.body.poolId !== undefined && input.body.period !== undefined;
}
