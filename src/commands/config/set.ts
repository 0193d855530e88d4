// `proxyctl config set KEY VALUE`: checks the value, then stores it with the profile in use, or, for
// a money setting with a shared ledger (ledger-url), with the team in the database.
import { ExitCode } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import type { Input } from './set.command.js';
import { keyOf, profileOf, shown, teamSettings } from './settings.js';

export default async function handler({ args: [key, value], ctx }: Input): Promise<Result> {
  const k = keyOf(key);
  const parsed = k.parse(value);
  if (k.field === 'ledgerUrl') {
    await (await import('./ledger-url.js')).setLedgerUrl(ctx, parsed as string);
    return ExitCode.ok;
  }
  const team = k.team ? await teamSettings(ctx) : undefined;
  if (team) {
    await team.set(k.field, parsed);
    ctx.notice(`${key} set for the team in the shared ledger ${team.where}: ${shown(parsed)} (every machine reads it when it charges)`);
    return ExitCode.ok;
  }
  const { store, name } = await profileOf(ctx);
  // The key decides the value's type (a URL, an amount, a list): KEYS pairs them.
  await store.setProfileSetting(name, k.field, parsed as never);
  ctx.notice(`${key} set for profile "${name}": ${(k.show ?? shown)(parsed)}`);
  return ExitCode.ok;
}
