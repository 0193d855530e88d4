// `proxyctl profiles remove NAME`: the profile, its key wherever it lives, and its settings (base
// URL, budgets, policy). It asks first on a terminal (Enter is No) and needs --yes anywhere else,
// refusing before anything is touched; `logout` is the way to forget only the key.
import type { Input } from './remove.command.js';
import type { Result } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import type { Profile } from '../../config/store.js';
import { forgetLedgerPassword, forgetStoredKey, keyStoreOf } from '../../context/stored-key.js';
import { profileSettings } from '../config/settings.js';

/** "its API key and its settings (max-spend-per-day 50, …)": what removing the profile forgets. */
function whatGoes(p: Profile): string {
  const settings = profileSettings(p);
  const key = keyStoreOf(p) === undefined ? undefined : 'its API key';
  const rest = settings.length > 0 ? `its settings (${settings.join(', ')})` : undefined;
  return [key, rest].filter((x) => x !== undefined).join(' and ') || 'nothing but its name';
}

async function confirmRemoval(ctx: Context, name: string, p: Profile): Promise<void> {
  if (ctx.globals.yes) return;
  const ask = await ctx.prompt.open({
    unavailable: new UsageError(`refusing to remove profile "${name}" without confirmation; nothing was removed`, {
      hint: `it forgets ${whatGoes(p)}; add --yes to confirm, or run proxyctl logout --profile ${name} to forget only the key`,
    }),
    cancelled: 'cancelled; nothing was removed',
  });
  await ask.confirm(
    { message: `Remove profile "${name}" and forget ${whatGoes(p)}?` },
    `nothing removed: the removal of profile "${name}" was not confirmed`,
  );
}

export default async function handler({ args: [name], ctx }: Input): Promise<Result> {
  const store = await ctx.config();
  const profile = store.profile(name);
  if (!profile) throw new UsageError(`no profile named "${name}"`, { hint: 'see proxyctl profiles list' });
  await confirmRemoval(ctx, name, profile);
  await forgetStoredKey(ctx, name, profile);
  await forgetLedgerPassword(ctx, name, profile);
  const { removed, wasCurrent } = await store.removeProfile(name);
  if (!removed) throw new UsageError(`no profile named "${name}"`, { hint: 'see proxyctl profiles list' });
  ctx.notice(
    `Removed profile "${name}" with ${whatGoes(profile)}.${wasCurrent ? ' It was the current profile; choose another with proxyctl profiles use NAME.' : ''}`,
  );
  return 0;
}
