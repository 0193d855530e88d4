// `units release REF...`: permanent and unrefunded, so it asks first on a terminal and needs
// --yes anywhere else; the refusal happens before any request.
import { emit, finished, showList, type Result } from '../../kit/action.js';
import type { Input } from './release.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { progressRenderer } from '../../output/progress.js';
import { runBulk, settleBulk } from '../../units/bulk.js';
import { releaseUnit } from '../../units/release.js';
import { parseRefs } from '../../units/validate.js';
import { collectSelection, describeSelection, nothingSelected, selectionQuery, someRefs } from '../../units/select.js';
import type { Prompter } from '../../context/prompt.js';
import { parseCustomer } from '../../ledger/customer.js';
import { escapeControl } from '../../output/index.js';
import { allUnits } from '../../api/endpoints.js';
import type * as shapes from '../../api/shapes.js';
import { remember } from '../../kit/remember.js';
import { rerunCommand } from './rerun.js';
import { emitOutcomes } from './outcomes.js';

type Removed = shapes.Removed;

const view = {
  columns: [
    { header: 'ref', value: (r: Removed) => r.proxyRef },
    { header: 'removed', value: (r: Removed) => r.removed },
  ],
  // The release answer's fields (spec 4.3), whatever else an answer carries.
  fields: ['proxyRef', 'removed'],
};

export async function confirmRelease(refs: string[], ctx: Context): Promise<void> {
  const ask = await openRelease(ctx, someRefs(refs));
  if (ask) await askRelease(ask, someRefs(refs));
}

/** The prompt for a release, or undefined with --yes; exit 2 without a terminal (before any request). */
async function openRelease(ctx: Context, what: string): Promise<Prompter | undefined> {
  if (ctx.globals.yes) return undefined;
  return ctx.prompt.open({
    unavailable: new UsageError(`refusing to release ${what} without confirmation`, {
      hint: 'releasing deletes units permanently with no refund; add --yes to confirm',
    }),
    cancelled: 'cancelled; nothing was released',
  });
}

/** `what`: the refs named, or the selection with its count ("3 units tagged customer=acme (PRX-1, …)"). */
async function askRelease(ask: Prompter, what: string): Promise<void> {
  // A "no" is exit 2 (the contract's "refused confirmation"), so a wrapper script never mistakes
  // "the user said no" for "released".
  await ask.confirm(
    { message: `Release ${what}? They are deleted permanently and nothing is refunded.` },
    'nothing released: the release was not confirmed',
  );
}

export async function releaseUnits(refs: string[], ctx: Context, list = false): Promise<void> {
  const api = await ctx.api();
  const report = await runBulk(ctx, refs, { verb: 'released', label: (r) => r, onEvent: progressRenderer(ctx) }, (ref) =>
    releaseUnit(api, ref),
  );
  await emitOutcomes(ctx, report, { one: view, many: view }, (o) => ({ proxyRef: o.label, removed: false }), list);
  await remember(ctx, { remove: { units: report.outcomes.flatMap((o) => (o.ok ? [o.label] : [])) } });
  // After Ctrl-C: the units not started. --yes is repeated only if it was given: a release confirmed
  // at the prompt is asked again.
  settleBulk(ctx, report, 'released', undefined, (rest) =>
    rerunCommand(ctx, ['units', 'release', ...rest, ...(ctx.globals.yes ? ['--yes'] : [])]),
  );
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  if (flags.customer === undefined) {
    if (raw.length === 0)
      throw new UsageError('give at least one unit reference (e.g. PRX-123), or --customer NAME', {
        hint: 'e.g. proxyctl units release PRX-123, or proxyctl units release --customer acme (every active unit tagged customer=acme)',
      });
    const refs = parseRefs(raw);
    await confirmRelease(refs, ctx);
    await releaseUnits(refs, ctx);
    return finished(ctx);
  }
  if (raw.length > 0) throw new UsageError('give unit references or --customer, not both');
  // The exact tag: --customer acme never releases customer=acme-corp's units.
  const criteria = { customer: parseCustomer(flags.customer) };
  // Without a terminal --yes is needed: refused here, before the list is read.
  const ask = await openRelease(ctx, `every active unit tagged customer=${criteria.customer}`);
  const api = await ctx.api();
  const units = await collectSelection(allUnits(api, selectionQuery(criteria)), criteria, ctx.now().getTime());
  if (units.size === 0) {
    // Nothing to release is not an error: a script sees an empty list.
    await emit(ctx, showList([], { ...view, empty: escapeControl(nothingSelected(criteria, 'released')) }));
    return finished(ctx);
  }
  const refs = [...units.keys()];
  // The customer's units are named with their count, in the question as in the notice of --yes.
  const what = escapeControl(describeSelection(refs, criteria));
  if (ask) await askRelease(ask, what);
  else ctx.notice(`releasing ${what}`);
  await releaseUnits(refs, ctx, true);
  return finished(ctx);
}
