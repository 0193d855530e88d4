// `proxyctl config get KEY`: the value alone on stdout, for scripts; exit 5 when it is not set. A
// money setting with a shared ledger is the team's; ledger-url is shown without its password.
import { ExitCode } from '../../errors.js';
import { showText, type Result } from '../../kit/action.js';
import type { Input } from './get.command.js';
import { keyOf, profileOf, shown, teamSettings } from './settings.js';

export default async function handler({ args: [key], ctx }: Input): Promise<Result> {
  const k = keyOf(key);
  const team = k.team ? await teamSettings(ctx) : undefined;
  const { name } = await profileOf(ctx);
  const value = team ? (await team.read())[k.field] : (await profileOf(ctx)).store.profile(name)?.[k.field];
  if (value === undefined) {
    ctx.notice(
      team
        ? `${key} is not set for the team; set it with proxyctl config set ${key} VALUE`
        : `${key} is not set for profile "${name}"; set it with proxyctl config set ${key} VALUE`,
    );
    return ExitCode.notFound;
  }
  // Exactly one line per value, whatever a hand-edited config file holds.
  return showText(`${(k.show ?? shown)(value)}\n`);
}
