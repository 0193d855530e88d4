// `proxyctl profiles remove NAME`: the profile, and its key wherever it lives.
import type { Input } from './remove.command.js';
import type { Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { forgetStoredKey } from '../../context/stored-key.js';

export default async function handler({ args: [name], ctx }: Input): Promise<Result> {
  const store = await ctx.config();
  const profile = store.profile(name);
  if (!profile) throw new UsageError(`no profile named "${name}"`, { hint: 'see proxyctl profiles list' });
  await forgetStoredKey(ctx, name, profile);
  const { removed, wasCurrent } = await store.removeProfile(name);
  if (!removed) throw new UsageError(`no profile named "${name}"`, { hint: 'see proxyctl profiles list' });
  ctx.notice(
    `Removed profile "${name}".${wasCurrent ? ' It was the current profile; choose another with proxyctl profiles use NAME.' : ''}`,
  );
  return 0;
}
