// `units modify REF`: description, credentials, or the replacement IP whitelist (PATCH).
import { show, type Result } from '../action.js';
import type { Input } from './modify.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { applied, notModified, type ModifyRequest } from '../../units/not-applied.js';
import { normaliseAllowIps, parseCredentials, parseRef } from '../../units/validate.js';
import * as shapes from '../../api/shapes.js';

type Flags = Input['flags'];

export type ModifyBody = ModifyRequest;

export function parseModify(f: Flags): ModifyBody {
  const allowedIps = normaliseAllowIps(f.allowIp);
  const credentials = parseCredentials(f.username, f.password);
  const body: ModifyBody = {
    ...(f.description !== undefined ? { description: f.description } : {}),
    ...(allowedIps.length ? { allowedIps: [...new Set(allowedIps)] } : {}),
    ...(credentials ? { credentials } : {}),
  };
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --description, --allow-ip or --username/--password');
  return body;
}

export async function modifyUnit(ref: string, body: ModifyBody, ctx: Context): Promise<shapes.Modified> {
  const api = await ctx.api();
  // A replacement of fields: sending it twice leaves the same unit, so reads' retries are fine.
  const res = await api.request('PATCH', `/units/${encodeURIComponent(ref)}`, shapes.modified, {
    body,
    retry: 'read',
  });
  // Only `modified: true` is done; anything else fails with the API's answer and what a re-read found.
  if (!applied(res.data, 'modified')) throw await notModified(api, ref, body, res.data, res.requestId);
  return res.data;
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const ref = parseRef(raw);
  const result = await modifyUnit(ref, parseModify(flags), ctx);
  return show(result);
}
