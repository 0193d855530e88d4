// `proxyctl config unset KEY`: removes the setting from the profile in use (or the team's, for a
// money setting with a shared ledger).
import { ExitCode } from '../../errors.js';
import type { Result } from '../../kit/action.js';
import type { Input } from './unset.command.js';
import { keyOf, profileOf, teamSettings } from './settings.js';

export default async function handler({ args: [key], ctx }: Input): Promise<Result> {
  const k = keyOf(key);
  if (k.field === 'ledgerUrl') {
    await (await import('./ledger-url.js')).unsetLedgerUrl(ctx);
    return ExitCode.ok;
  }
  const team = k.team ? await teamSettings(ctx) : undefined;
  if (team) {
    await team.set(k.field, undefined);
    ctx.notice(`${key} removed from the team's settings in the shared ledger ${team.where}`);
    return ExitCode.ok;
  }
  const { store, name } = await profileOf(ctx);
  await store.setProfileSetting(name, k.field, undefined);
  ctx.notice(`${key} removed from profile "${name}"`);
  return ExitCode.ok;
}
