// `proxyctl profiles use NAME`
import type { Input } from './use.command.js';
import type { Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';

export default async function handler({ args: [name], ctx }: Input): Promise<Result> {
  const store = await ctx.config();
  // Checked again under the lock: another process may have removed it since this one started.
  if (!(await store.useProfile(name))) {
    const known = Object.keys(store.profiles());
    throw new UsageError(`no profile named "${name}"`, {
      hint: known.length ? `stored profiles: ${known.join(', ')}` : `run proxyctl login --profile ${name}`,
    });
  }
  ctx.notice(`Now using profile "${name}".`);
  return 0;
}
