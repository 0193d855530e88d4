// `proxyctl profiles remove NAME`
import type { Input } from './remove.command.js';
import type { Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';

export default async function handler({ args: [name], ctx }: Input): Promise<Result> {
  const store = await ctx.config();
  const { removed, wasCurrent } = await store.removeProfile(name);
  if (!removed) throw new UsageError(`no profile named "${name}"`, { hint: 'see proxyctl profiles list' });
  ctx.notice(
    `Removed profile "${name}".${wasCurrent ? ' It was the current profile; choose another with proxyctl profiles use NAME.' : ''}`,
  );
  return 0;
}
