// `config set|get|unset KEY`: one setting of the profile in use (--profile, PROXYCTL_PROFILE, else
// the current one), written through the locked config store so parallel processes never lose one.
import type { Context } from '../../context/index.js';
import type { ProfileSetting } from '../../config/store.js';
import { profileInUse } from '../../context/credentials.js';
import { UsageError } from '../../errors.js';
import { parseTargetUrl } from '../units/check-target.js';

/** The keys as typed, their field in the profile, and how a value is checked. */
const KEYS: Record<string, { field: ProfileSetting; parse: (v: string) => string }> = {
  'check-target': { field: 'checkTarget', parse: (v) => parseTargetUrl(v, 'check-target').href },
};

export function keyOf(raw: string) {
  const k = KEYS[raw];
  if (!k) throw new UsageError(`unknown setting "${raw}" (known: ${Object.keys(KEYS).join(', ')})`);
  return k;
}

/** The config store and the name of the profile in use. */
export async function profileOf(ctx: Context) {
  const store = await ctx.config();
  return { store, name: profileInUse(ctx, store) };
}
