// `proxyctl logout`: forgets the profile's API key, from the OS keyring or the config file, and
// only that: the base URL, budgets and policy stay, so logging in again (a rotated key) finds the
// same spending guard. They go with `proxyctl profiles remove`, which asks first.
import type { Input } from './logout.command.js';
import type { Result } from '../../kit/action.js';
import { profileInUse } from '../../context/credentials.js';
import { forgetStoredKey, keyStoreOf } from '../../context/stored-key.js';
import { profileSettings } from '../config/settings.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const store = await ctx.config();
  const name = profileInUse(ctx, store);
  const profile = store.profile(name);
  const where = keyStoreOf(profile);
  if (where === undefined) {
    ctx.notice(profile ? `Profile "${name}" has no stored API key; nothing to do.` : `Profile "${name}" is not logged in; nothing to do.`);
  } else {
    await forgetStoredKey(ctx, name, profile);
    const kept = await store.forgetKey(name);
    ctx.notice(
      `Logged out: removed the API key of profile "${name}" (from ${where === 'keyring' ? 'the OS keyring' : 'the config file'}).`,
    );
    const settings = kept ? profileSettings(kept) : [];
    if (settings.length > 0)
      ctx.notice(`Kept profile ${name}'s settings: ${settings.join(', ')}; proxyctl profiles remove ${name} forgets them too.`);
  }
  if (ctx.io.env.PROXYCTL_API_KEY) ctx.warn('PROXYCTL_API_KEY is still set in the environment and will keep being used.');
  return 0;
}
