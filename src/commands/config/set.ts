// `proxyctl config set KEY VALUE`: checks the value, then stores it with the profile in use.
import { ExitCode } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import type { Input } from './set.command.js';
import { keyOf, profileOf, shown } from './settings.js';

export default async function handler({ args: [key, value], ctx }: Input): Promise<Result> {
  const k = keyOf(key);
  const parsed = k.parse(value);
  const { store, name } = await profileOf(ctx);
  // The key decides the value's type (a URL, an amount, a list): KEYS pairs them.
  await store.setProfileSetting(name, k.field, parsed as never);
  ctx.notice(`${key} set for profile "${name}": ${(k.show ?? shown)(parsed)}`);
  return ExitCode.ok;
}
