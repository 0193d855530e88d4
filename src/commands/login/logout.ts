// `proxyctl logout`: removes the profile (its key and base URL) from the config file, and its key
// from the OS keyring when it lives there.
import type { Input } from './logout.command.js';
import type { Result } from '../../kit/action.js';
import { profileInUse } from '../../context/credentials.js';
import { forgetStoredKey, keyStoreOf } from '../../context/stored-key.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const store = await ctx.config();
  const name = profileInUse(ctx, store);
  const profile = store.profile(name);
  await forgetStoredKey(ctx, name, profile);
  if (!(await store.removeProfile(name)).removed) {
    ctx.notice(`Profile "${name}" is not logged in; nothing to do.`);
    return 0;
  }
  ctx.notice(`Logged out: removed profile "${name}" and its API key${keyStoreOf(profile) === 'keyring' ? ' (from the OS keyring)' : ''}.`);
  if (ctx.io.env.PROXYCTL_API_KEY) ctx.warn('PROXYCTL_API_KEY is still set in the environment and will keep being used.');
  return 0;
}
