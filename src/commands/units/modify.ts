// `units modify`: description, customer tag, credentials, or the replacement IP whitelist (PATCH),
// on one unit (its answer, as before) or many: named, piped on stdin (`-`), or selected from the
// active units (--pool, --tagged, --description-contains). The change itself is the domain's
// (src/units/modify.ts); --customer keeps each unit's own text beside the tag, so it reads each
// unit's description first.
import { emit, finished, show, showList, type Result } from '../../kit/action.js';
import type { Input } from './modify.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { readAllText } from '../../io.js';
import { parseCustomer } from '../../ledger/index.js';
import { progressRenderer } from '../../output/progress.js';
import { runBulk, settleBulk } from '../../units/bulk.js';
import { normalisePoolIdFlag } from '../../units/catalogue-ids.js';
import {
  bodyFor,
  descriptionBefore,
  descriptionOf,
  modifyUnit,
  parseModify,
  regeneratePassword,
  type Before,
  type ModifyRun,
} from '../../units/modify.js';
import { unitFilter } from '../../units/select.js';
import type { Unit } from '../../units/types.js';
import { parseRef, parseRefs } from '../../units/validate.js';
import { changedUnitView, unitDetailView, unitView } from '../../units/view.js';
import { withConnFormat } from '../../output/conn.js';
import { allUnits } from '../../api/endpoints.js';
import type * as shapes from '../../api/shapes.js';
import { emitOutcomes } from './outcomes.js';
import { rerunCommand } from './rerun.js';

type Flags = Input['flags'];

/** The change is made through the command's API client, and its customer tag goes to the account's ledger. */
const modifyRun = async (ctx: Context): Promise<ModifyRun> => ({ api: await ctx.api(), ledger: ctx.ledger, now: ctx.now, warn: ctx.warn });

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
    const run = await modifyRun(ctx);
    if (change.regenerate) {
      const unit = await regeneratePassword(run, ref, change, undefined);
      ctx.notice(NEW_PASSWORDS_SET);
      return show(unit, units.one);
    }
    const before =
      change.customer !== undefined && change.body.description === undefined ? await descriptionBefore(run.api, ref) : undefined;
    return show(await modifyUnit(run, ref, bodyFor(change, before?.description), before));
  }
  const run = await modifyRun(ctx);
  const { api } = run;
  // What each unit's description is now, where the change needs it (a selection has it already).
  const known = new Map<string, string | undefined>();
  const listed = new Map<string, Unit>();
  let refs: string[];
  if (selecting) {
    const keep = unitFilter({ descriptionContains: flags.descriptionContains, customer: tagged }) ?? (() => true);
    refs = [];
    let noPassword = 0;
    for await (const u of allUnits(api, { status: 'ACTIVE', poolId })) {
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
      regeneratePassword(run, ref, change, listed.get(ref)),
    );
    await emitOutcomes(ctx, report, units, (o) => ({ proxyRef: o.label, modified: false }), true);
    if (report.outcomes.some((o) => o.ok)) ctx.notice(NEW_PASSWORDS_SET);
    settleBulk(ctx, report, 'modified', undefined, (rest) => rerunCommand(ctx, ['units', 'modify', ...rest, ...changeArgs(flags)]));
    return finished(ctx);
  }
  const report = await runBulk(ctx, refs, { verb: 'modified', label: (r) => r, onEvent: progressRenderer(ctx) }, async (ref) => {
    const before: Before | undefined = known.has(ref)
      ? { description: known.get(ref) }
      : change.customer !== undefined && change.body.description === undefined
        ? await descriptionBefore(api, ref)
        : undefined;
    return modifyUnit(run, ref, bodyFor(change, before?.description), before);
  });
  await emitOutcomes(ctx, report, { one: view, many: view }, (o) => ({ proxyRef: o.label, modified: false }), true);
  // A password is never printed, so a change of credentials has no command to finish with.
  const rerun =
    flags.password === undefined ? (rest: string[]) => rerunCommand(ctx, ['units', 'modify', ...rest, ...changeArgs(flags)]) : undefined;
  settleBulk(ctx, report, 'modified', undefined, rerun);
  return finished(ctx);
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

// True of where they can be read again: the API keeps the credentials, so units get/list -o conn show them.
const NEW_PASSWORDS_SET =
  'new passwords generated on this machine and set on the units; the old ones no longer work (units list -o conn shows the new ones again)';
