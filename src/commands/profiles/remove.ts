// `proxyctl profiles remove NAME`
import type { HandlerInput } from '../action.js';
import { UsageError } from '../../errors.js';

export default async function remove({ args, ctx }: HandlerInput): Promise<number> {
  const name = String(args[0]);
  const store = await ctx.config();
  const { removed, wasCurrent } = await store.removeProfile(name);
  if (!removed) throw new UsageError(`no profile named "${name}"`, { hint: 'see proxyctl profiles list' });
  ctx.notice(`Removed profile "${name}".${wasCurrent ? ' It was the current profile; choose another with proxyctl profiles use NAME.' : ''}`);
  return 0;
}
