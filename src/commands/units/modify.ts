// `units modify`: description, customer tag, credentials, or the replacement IP whitelist (PATCH),
// on one unit (its answer, as before) or many: named, piped on stdin (`-`), or selected from the
// active units (--pool, --tagged, --description-contains). --customer keeps each unit's own text
// beside the tag, so it reads each unit's description first.
import { emit, finished, show, showList, type Result } from '../../kit/action.js';
import type { Input } from './modify.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { readAllText } from '../../io.js';
import { parseCustomer, withCustomer } from '../../ledger/index.js';
import { progressRenderer } from '../../output/progress.js';
import { runBulk, settleBulk } from '../../units/bulk.js';
import { normalisePoolIdFlag } from '../../units/catalogue-ids.js';
import { applied, notModified, type ModifyRequest } from '../../units/not-applied.js';
import { unitFilter } from '../../units/select.js';
import type { Unit } from '../../units/types.js';
import { normaliseAllowIps, parseCredentials, parseRef, parseRefs } from '../../units/validate.js';
import * as shapes from '../../api/shapes.js';
import { emitOutcomes } from './outcomes.js';
import { rerunCommand } from './rerun.js';

type Flags = Input['flags'];

export type ModifyBody = ModifyRequest;

export interface Change {
  body: ModifyBody;
  /** --customer: each unit's description gets this tag, its other text kept. */
  customer: string | undefined;
}

export function parseModify(f: Flags): Change {
  const allowedIps = normaliseAllowIps(f.allowIp);
  const credentials = parseCredentials(f.username, f.password);
  const customer = f.customer === undefined ? undefined : parseCustomer(f.customer);
  const body: ModifyBody = {
    ...(f.description !== undefined ? { description: customer ? withCustomer(f.description, customer) : f.description } : {}),
    ...(allowedIps.length ? { allowedIps: [...new Set(allowedIps)] } : {}),
    ...(credentials ? { credentials } : {}),
  };
  if (Object.keys(body).length === 0 && customer === undefined)
    throw new UsageError('nothing to change: give --description, --customer, --allow-ip or --username/--password');
  return { body, customer };
}

/** The body for one unit: with --customer and no --description, its own description re-tagged. */
export function bodyFor(change: Change, current: string | undefined): ModifyBody {
  if (change.customer === undefined || change.body.description !== undefined) return change.body;
  return { ...change.body, description: withCustomer(current, change.customer) };
}

const descriptionOf = (u: Unit) => (typeof u.description === 'string' ? u.description : undefined);

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

const view = {
  columns: [
    { header: 'ref', value: (r: shapes.Modified) => r.proxyRef },
    { header: 'modified', value: (r: shapes.Modified) => r.modified },
  ],
  fields: ['proxyRef', 'modified'],
};

/** Refs piped on stdin: separated by whitespace or commas; blank lines and # comments skipped. */
async function refsFromStdin(ctx: Context): Promise<string[]> {
  if (ctx.io.stdinIsTTY)
    throw new UsageError('- reads unit references from stdin: pipe them in (e.g. from units list -o json | jq -r ".[].proxyRef")');
  const text = await readAllText(ctx.io.stdin);
  const words = text
    .split('\n')
    .map((l) => l.replace(/#.*/, ''))
    .flatMap((l) => l.split(/[\s,]+/))
    .filter((w) => w !== '');
  if (words.length === 0) throw new UsageError('no unit references on stdin');
  return parseRefs(words);
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const change = parseModify(flags);
  const poolId = normalisePoolIdFlag(flags.pool);
  const tagged = flags.tagged === undefined ? undefined : parseCustomer(flags.tagged, '--tagged');
  const selecting = poolId !== undefined || tagged !== undefined || flags.descriptionContains !== undefined;
  if (selecting && raw.length > 0)
    throw new UsageError('give unit references or a selection (--pool, --tagged, --description-contains), not both');
  if (!selecting && raw.length === 0)
    throw new UsageError(
      'give at least one unit reference, - to read them from stdin, or select with --pool, --tagged or --description-contains',
    );
  // One named unit: its own answer, as always.
  if (raw.length === 1 && raw[0] !== '-') {
    const ref = parseRef(raw[0]!);
    const current = change.customer !== undefined && change.body.description === undefined ? await readDescription(ctx, ref) : undefined;
    return show(await modifyUnit(ref, bodyFor(change, current), ctx));
  }
  const api = await ctx.api();
  // What each unit's description is now, where the change needs it (a selection has it already).
  const known = new Map<string, string | undefined>();
  let refs: string[];
  if (selecting) {
    const keep = unitFilter({ descriptionContains: flags.descriptionContains, customer: tagged }) ?? (() => true);
    refs = [];
    for await (const u of api.all('/units', shapes.unit, { status: 'ACTIVE', poolId })) {
      if (!keep(u)) continue;
      refs.push(u.proxyRef);
      known.set(u.proxyRef, descriptionOf(u));
    }
    if (refs.length === 0) {
      ctx.notice('No active unit matches the selection; nothing was changed.');
      await emit(ctx, showList([], view));
      return finished(ctx);
    }
  } else refs = raw.length === 1 && raw[0] === '-' ? await refsFromStdin(ctx) : parseRefs(raw);
  const report = await runBulk(ctx, refs, { verb: 'modified', label: (r) => r, onEvent: progressRenderer(ctx) }, async (ref) => {
    const current =
      change.customer !== undefined && change.body.description === undefined && !known.has(ref)
        ? await readDescription(ctx, ref)
        : known.get(ref);
    return modifyUnit(ref, bodyFor(change, current), ctx);
  });
  await emitOutcomes(ctx, report, { one: view, many: view }, (o) => ({ proxyRef: o.label, modified: false }), true);
  // A password is never printed, so a change of credentials has no command to finish with.
  const rerun =
    flags.password === undefined ? (rest: string[]) => rerunCommand(ctx, ['units', 'modify', ...rest, ...changeArgs(flags)]) : undefined;
  settleBulk(ctx, report, 'modified', undefined, rerun);
  return finished(ctx);
}

export async function readDescription(ctx: Context, ref: string): Promise<string | undefined> {
  const api = await ctx.api();
  return descriptionOf(await api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit));
}

/** The change flags again, for the command that finishes the rest after Ctrl-C. */
function changeArgs(f: Flags): string[] {
  return [
    ...(f.description !== undefined ? ['--description', f.description] : []),
    ...(f.customer !== undefined ? ['--customer', f.customer] : []),
    ...(f.allowIp ?? []).flatMap((ip) => ['--allow-ip', ip]),
  ];
}
