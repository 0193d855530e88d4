// `units change-protocol REF --protocol P`: free; http_noauth needs exactly one whitelisted IP.
import { show, type Result } from '../action.js';
import type { Input } from './change-protocol.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { assertFormats } from '../../output/index.js';
import type { Unit } from '../../units/types.js';
import { checkAllowIpsFor, normaliseAllowIps, parseCredentials, parseProtocol, parseRef } from '../../units/validate.js';
import { unitDetailView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';

type Flags = Input['flags'];

export interface ChangeProtocolBody {
  newProtocol: string;
  allowedIps?: string[];
  credentials?: { username: string; password: string };
}

export function parseChangeProtocol(f: Flags): ChangeProtocolBody {
  const newProtocol = parseProtocol(f.protocol);
  const allowedIps = checkAllowIpsFor(newProtocol, normaliseAllowIps(f.allowIp), 'change-protocol');
  const credentials = parseCredentials(f.username, f.password);
  if (credentials && newProtocol === 'http_noauth') throw new UsageError('http_noauth has no credentials: drop --username/--password');
  return { newProtocol, ...(allowedIps ? { allowedIps } : {}), ...(credentials ? { credentials } : {}) };
}

export async function run(ref: string, body: ChangeProtocolBody, ctx: Context): Promise<Unit> {
  const api = await ctx.api();
  const res = await api.request<Unit>('POST', `/units/${encodeURIComponent(ref)}/change-protocol`, shapes.unit, {
    body,
    retry: 'not-sent',
  });
  return res.data;
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
  const ref = parseRef(raw);
  const body = parseChangeProtocol(flags);
  return show(await run(ref, body, ctx), unitDetailView);
}
