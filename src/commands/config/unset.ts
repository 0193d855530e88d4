// `proxyctl config unset KEY`: removes the setting from the profile in use.
import { ExitCode } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import type { Input } from './unset.command.js';
import { keyOf, profileOf } from './settings.js';

export default async function handler({ args: [key], ctx }: Input): Promise<Result> {
  const k = keyOf(key);
  const { store, name } = await profileOf(ctx);
  await store.setProfileSetting(name, k.field, undefined);
  ctx.notice(`${key} removed from profile "${name}"`);
  return ExitCode.ok;
}
