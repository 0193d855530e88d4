// `units release REF...`: permanent and unrefunded, so it asks first on a terminal and needs
// --yes anywhere else; the refusal happens before any request.
import { finished, type Result } from '../../kit/action.js';
import type { Input } from './release.command.js';
import type { Context } from '../../context/index.js';
import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { progressRenderer } from '../../output/progress.js';
import { runBulk, settleBulk } from '../../units/bulk.js';
import { applied, notRemoved } from '../../units/not-applied.js';
import { parseRefs } from '../../units/validate.js';
import * as shapes from '../../api/shapes.js';
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
  if (ctx.globals.yes) return;
  const list = refs.length > 5 ? `${refs.slice(0, 5).join(', ')} and ${refs.length - 5} more` : refs.join(', ');
  const ask = await ctx.prompt.open({
    unavailable: new UsageError(`refusing to release ${list} without confirmation`, {
      hint: 'releasing deletes units permanently with no refund; add --yes to confirm',
    }),
    cancelled: 'cancelled; nothing was released',
  });
  // A "no" is exit 2 (the contract's "refused confirmation"), so a wrapper script never mistakes
  // "the user said no" for "released".
  await ask.confirm(
    { message: `Release ${list}? They are deleted permanently and nothing is refunded.` },
    'nothing released: the release was not confirmed',
  );
}

/** One unit released (DELETE), or the API's answer as the failure when it did not say `removed: true`. */
export async function releaseUnit(api: ApiClient, ref: string): Promise<Removed> {
  const res = await api.request('DELETE', `/units/${encodeURIComponent(ref)}`, shapes.removed, { retry: 'not-sent' });
  // Only `removed: true` is a release; anything else fails this item with the API's answer.
  if (!applied(res.data, 'removed')) throw await notRemoved(api, ref, res.data, res.requestId);
  return res.data;
}

export async function releaseUnits(refs: string[], ctx: Context): Promise<void> {
  const api = await ctx.api();
  const report = await runBulk(ctx, refs, { verb: 'released', label: (r) => r, onEvent: progressRenderer(ctx) }, (ref) =>
    releaseUnit(api, ref),
  );
  await emitOutcomes(ctx, report, { one: view, many: view }, (o) => ({ proxyRef: o.label, removed: false }));
  await remember(ctx, { remove: { units: report.outcomes.flatMap((o) => (o.ok ? [o.label] : [])) } });
  // After Ctrl-C: the units not started. --yes is repeated only if it was given: a release confirmed
  // at the prompt is asked again.
  settleBulk(ctx, report, 'released', undefined, (rest) =>
    rerunCommand(ctx, ['units', 'release', ...rest, ...(ctx.globals.yes ? ['--yes'] : [])]),
  );
}

export default async function handler({ args: [raw], ctx }: Input): Promise<Result> {
  const refs = parseRefs(raw);
  await confirmRelease(refs, ctx);
  await releaseUnits(refs, ctx);
  return finished(ctx);
}
