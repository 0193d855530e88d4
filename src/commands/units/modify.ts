// `units modify`: description, customer tag, credentials, or the replacement IP whitelist (PATCH),
// on one unit (its answer, as before) or many: named, piped on stdin (`-`), or selected from the
// active units (--pool, --tagged, --description-contains). --customer keeps each unit's own text
// beside the tag, so it reads each unit's description first.
import { emit, finished, show, showList, type Result } from '../../kit/action.js';
import type { Input } from './modify.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { readAllText } from '../../io.js';
import { customerOf, parseCustomer, withCustomer } from '../../ledger/index.js';
import { progressRenderer } from '../../output/progress.js';
import { runBulk, settleBulk } from '../../units/bulk.js';
import { normalisePoolIdFlag } from '../../units/catalogue-ids.js';
import { applied, notModified, type ModifyRequest } from '../../units/not-applied.js';
import { unitFilter } from '../../units/select.js';
import type { Unit } from '../../units/types.js';
import { normaliseAllowIps, parseCredential, parseCredentials, parseRef, parseRefs } from '../../units/validate.js';
import { generatePassword } from '../../units/password.js';
import { changedUnitView, unitDetailView, unitView } from '../../units/view.js';
import { withConnFormat } from '../../output/conn.js';
import * as shapes from '../../api/shapes.js';
import { emitOutcomes } from './outcomes.js';
import { rerunCommand } from './rerun.js';

type Flags = Input['flags'];

export type ModifyBody = ModifyRequest;

export interface Change {
  body: ModifyBody;
  /** --customer: each unit's description gets this tag, its other text kept. */
  customer: string | undefined;
  /** --regenerate-password: a new password per unit, under --username's name or the unit's own. */
  regenerate: { username: string | undefined } | undefined;
}

export function parseModify(f: Flags): Change {
  const allowedIps = normaliseAllowIps(f.allowIp);
  const regenerate = f.regeneratePassword ? parseRegenerate(f, allowedIps) : undefined;
  if (!regenerate && f.connFormat !== undefined)
    throw new UsageError('--conn-format shapes the connection lines of --regenerate-password; modify prints no connections otherwise');
  const credentials = regenerate ? undefined : parseCredentials(f.username, f.password);
  const customer = f.customer === undefined ? undefined : parseCustomer(f.customer);
  const body: ModifyBody = {
    ...(f.description !== undefined ? { description: customer ? withCustomer(f.description, customer) : f.description } : {}),
    ...(allowedIps.length ? { allowedIps: [...new Set(allowedIps)] } : {}),
    ...(credentials ? { credentials } : {}),
  };
  if (Object.keys(body).length === 0 && customer === undefined && !regenerate)
    throw new UsageError('nothing to change: give --description, --customer, --allow-ip, --username/--password or --regenerate-password');
  return { body, customer, regenerate };
}

/** --regenerate-password: the password is made here, so one typed too is a mistake, as is a whitelist (no-auth units have no password). */
function parseRegenerate(f: Flags, allowedIps: string[]): NonNullable<Change['regenerate']> {
  if (f.password !== undefined) throw new UsageError('--regenerate-password makes the password: drop --password');
  if (allowedIps.length > 0)
    throw new UsageError('--allow-ip is for http_noauth units, which have no password: change it apart from --regenerate-password');
  return { username: f.username === undefined ? undefined : parseCredential(f.username, '--username') };
}

/** The body for one unit: with --customer and no --description, its own description re-tagged. */
export function bodyFor(change: Change, current: string | undefined): ModifyBody {
  if (change.customer === undefined || change.body.description !== undefined) return change.body;
  return { ...change.body, description: withCustomer(current, change.customer) };
}

const descriptionOf = (u: Unit) => (typeof u.description === 'string' ? u.description : undefined);

/**
 * A new password for one unit (read first unless the selection listed it): sent in the one PATCH
 * with the rest of the change, and returned in the unit as it now is, the one place it is shown.
 */
async function regeneratePassword(ctx: Context, ref: string, change: Change, listed: Unit | undefined): Promise<Unit> {
  const api = await ctx.api();
  const unit = listed ?? (await api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit));
  const username = change.regenerate?.username ?? unit.credentials?.username;
  if (!unit.credentials || username === undefined)
    throw new UsageError(`${ref} has no password to regenerate: an ${unit.protocol ?? 'http_noauth'} unit is reached by its allowed IPs`);
  const credentials = { username, password: generatePassword() };
  const body = { ...bodyFor(change, descriptionOf(unit)), credentials };
  await modifyUnit(ref, body, ctx, { description: descriptionOf(unit) });
  return { ...unit, credentials, ...(body.description !== undefined ? { description: body.description } : {}) };
}

/** What a unit's description was before a change, when it was read (a tag records the customer it had). */
export interface Before {
  description: string | undefined;
}

/**
 * PATCHes one unit. A description written is also recorded in the ledger as the unit's customer
 * tag (noteTag), with the one it had when `before` says, so its debits follow the tag.
 */
export async function modifyUnit(ref: string, body: ModifyBody, ctx: Context, before?: Before): Promise<shapes.Modified> {
  const api = await ctx.api();
  // A replacement of fields: sending it twice leaves the same unit, so reads' retries are fine.
  const res = await api.request('PATCH', `/units/${encodeURIComponent(ref)}`, shapes.modified, {
    body,
    retry: 'read',
  });
  // Only `modified: true` is done; anything else fails with the API's answer and what a re-read found.
  if (!applied(res.data, 'modified')) throw await notModified(api, ref, body, res.data, res.requestId);
  if (body.description !== undefined) await noteTag(ctx, ref, body.description, before);
  return res.data;
}

/**
 * Records the customer tag a description gives the unit (none when it has no `customer=NAME`), and
 * the one it had when it was read, so that src/ledger's attribute() gives the unit's untagged
 * debits to the customer it gets (tagging) and leaves past debits where they were (retagging). A
 * description that leaves the customer as it was records nothing. Never fails the change: a line
 * that cannot be written is said.
 */
async function noteTag(ctx: Context, ref: string, description: string, before: Before | undefined): Promise<void> {
  const customer = customerOf(description);
  const from = before ? (customerOf(before.description) ?? null) : undefined;
  if (from !== undefined && (from ?? undefined) === customer) return;
  let path = 'the ledger';
  try {
    const ledger = await ctx.ledger();
    path = ledger.journal.where;
    await ledger.journal.tag([{ kind: 'tag', ref, at: ctx.now().toISOString(), customer, from, profile: ledger.profile }]);
  } catch (err) {
    ctx.warn(`cannot write ${path}: ${(err as Error).message}; ${ref} is changed, but spend will not move its earlier debits with its tag`);
  }
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
  // With new passwords the units themselves are printed: -o conn (and --conn-format) hand them over.
  const units = {
    one: withConnFormat(ctx, changedUnitView(unitDetailView), flags.connFormat),
    many: withConnFormat(ctx, changedUnitView(unitView), flags.connFormat),
  };
  // One named unit: its own answer, as always.
  if (raw.length === 1 && raw[0] !== '-') {
    const ref = parseRef(raw[0]!);
    if (change.regenerate) {
      const unit = await regeneratePassword(ctx, ref, change, undefined);
      ctx.notice(SHOWN_ONCE);
      return show(unit, units.one);
    }
    const before = change.customer !== undefined && change.body.description === undefined ? await descriptionBefore(ctx, ref) : undefined;
    return show(await modifyUnit(ref, bodyFor(change, before?.description), ctx, before));
  }
  const api = await ctx.api();
  // What each unit's description is now, where the change needs it (a selection has it already).
  const known = new Map<string, string | undefined>();
  const listed = new Map<string, Unit>();
  let refs: string[];
  if (selecting) {
    const keep = unitFilter({ descriptionContains: flags.descriptionContains, customer: tagged }) ?? (() => true);
    refs = [];
    let noPassword = 0;
    for await (const u of api.all('/units', shapes.unit, { status: 'ACTIVE', poolId })) {
      if (!keep(u)) continue;
      // A selection's no-auth units have no password to regenerate: left out, and said.
      if (change.regenerate && !u.credentials) {
        noPassword += 1;
        continue;
      }
      refs.push(u.proxyRef);
      known.set(u.proxyRef, descriptionOf(u));
      listed.set(u.proxyRef, u);
    }
    if (noPassword > 0)
      ctx.notice(`${noPassword} selected unit${noPassword === 1 ? ' has' : 's have'} no password (http_noauth): left out`);
    if (refs.length === 0) {
      ctx.notice('No active unit matches the selection; nothing was changed.');
      await emit(ctx, showList([], view));
      return finished(ctx);
    }
  } else refs = raw.length === 1 && raw[0] === '-' ? await refsFromStdin(ctx) : parseRefs(raw);
  if (change.regenerate) {
    const report = await runBulk(ctx, refs, { verb: 'modified', label: (r) => r, onEvent: progressRenderer(ctx) }, (ref) =>
      regeneratePassword(ctx, ref, change, listed.get(ref)),
    );
    await emitOutcomes(ctx, report, units, (o) => ({ proxyRef: o.label, modified: false }), true);
    if (report.outcomes.some((o) => o.ok)) ctx.notice(SHOWN_ONCE);
    settleBulk(ctx, report, 'modified', undefined, (rest) => rerunCommand(ctx, ['units', 'modify', ...rest, ...changeArgs(flags)]));
    return finished(ctx);
  }
  const report = await runBulk(ctx, refs, { verb: 'modified', label: (r) => r, onEvent: progressRenderer(ctx) }, async (ref) => {
    const before: Before | undefined = known.has(ref)
      ? { description: known.get(ref) }
      : change.customer !== undefined && change.body.description === undefined
        ? await descriptionBefore(ctx, ref)
        : undefined;
    return modifyUnit(ref, bodyFor(change, before?.description), ctx, before);
  });
  await emitOutcomes(ctx, report, { one: view, many: view }, (o) => ({ proxyRef: o.label, modified: false }), true);
  // A password is never printed, so a change of credentials has no command to finish with.
  const rerun =
    flags.password === undefined ? (rest: string[]) => rerunCommand(ctx, ['units', 'modify', ...rest, ...changeArgs(flags)]) : undefined;
  settleBulk(ctx, report, 'modified', undefined, rerun);
  return finished(ctx);
}

/** The unit's description now, read before a change that keeps its other text. */
export async function descriptionBefore(ctx: Context, ref: string): Promise<Before> {
  const api = await ctx.api();
  return { description: descriptionOf(await api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit)) };
}

/** The change flags again, for the command that finishes the rest after Ctrl-C (never a password). */
function changeArgs(f: Flags): string[] {
  return [
    ...(f.description !== undefined ? ['--description', f.description] : []),
    ...(f.customer !== undefined ? ['--customer', f.customer] : []),
    ...(f.allowIp ?? []).flatMap((ip) => ['--allow-ip', ip]),
    ...(f.regeneratePassword ? [...(f.username !== undefined ? ['--username', f.username] : []), '--regenerate-password'] : []),
    ...(f.connFormat !== undefined ? ['--conn-format', f.connFormat] : []),
  ];
}

const SHOWN_ONCE = 'the new passwords are shown only here, generated on this machine; the old ones no longer work';
