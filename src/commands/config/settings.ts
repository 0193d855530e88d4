// `config set|get|unset KEY`: one setting of the profile in use (--profile, PROXYCTL_PROFILE, else
// the current one), written through the locked config store so parallel processes never lose one.
import type { Context } from '../../context/index.js';
import type { ProfileSetting } from '../../config/store.js';
import { profileInUse } from '../../context/credentials.js';
import { ExitCode, UsageError } from '../../errors.js';
import { parseTargetUrl } from '../units/check-target.js';
import type { Input as SetInput } from './set.command.js';
import type { Input as GetInput } from './get.command.js';
import type { Input as UnsetInput } from './unset.command.js';

/** The keys as typed, their field in the profile, and how a value is checked. */
const KEYS: Record<string, { field: ProfileSetting; parse: (v: string) => string }> = {
  'check-target': { field: 'checkTarget', parse: (v) => parseTargetUrl(v, 'check-target').href },
};

function keyOf(raw: string) {
  const k = KEYS[raw];
  if (!k) throw new UsageError(`unknown setting "${raw}" (known: ${Object.keys(KEYS).join(', ')})`);
  return k;
}

async function profileOf(ctx: Context) {
  const store = await ctx.config();
  return { store, name: profileInUse(ctx, store) };
}

export async function set({ args: [key, value], ctx }: SetInput): Promise<number> {
  const k = keyOf(key);
  const parsed = k.parse(value);
  const { store, name } = await profileOf(ctx);
  await store.setProfileSetting(name, k.field, parsed);
  ctx.notice(`${key} set for profile "${name}": ${parsed}`);
  return ExitCode.ok;
}

export async function get({ args: [key], ctx }: GetInput): Promise<number> {
  const k = keyOf(key);
  const { store, name } = await profileOf(ctx);
  const value = store.profile(name)?.[k.field];
  if (value === undefined) {
    ctx.notice(`${key} is not set for profile "${name}"; set it with proxyctl config set ${key} VALUE`);
    return ExitCode.notFound;
  }
  ctx.io.stdout.write(`${value}\n`);
  return ExitCode.ok;
}

export async function unset({ args: [key], ctx }: UnsetInput): Promise<number> {
  const k = keyOf(key);
  const { store, name } = await profileOf(ctx);
  await store.setProfileSetting(name, k.field, undefined);
  ctx.notice(`${key} removed from profile "${name}"`);
  return ExitCode.ok;
}
