// Where `units check` sends its requests: --target, else the profile's check-target
// (`proxyctl config set check-target URL`), else the sandbox's echo when the base URL is a sandbox
// (its openapi.json says so). None of them is exit 2, before any connection, saying how to set one.
import type { Context } from './types.js';
import { profileInUse, resolveCredentials } from './credentials.js';
import { UsageError } from '../errors.js';
import { parseTargetUrl } from '../units/check-target.js';

export async function resolveCheckTarget(ctx: Context, flag: string | undefined): Promise<URL> {
  if (flag !== undefined) return parseTargetUrl(flag, '--target');
  const store = await ctx.config();
  const profile = profileInUse(ctx, store);
  const stored = store.profile(profile)?.checkTarget;
  if (stored !== undefined) return parseTargetUrl(stored, `the check-target of profile "${profile}"`);
  const creds = await resolveCredentials(ctx);
  if (creds.baseUrl !== undefined && creds.apiKey !== undefined) {
    const api = await ctx.api();
    const { discover } = await import('../api/discovery.js');
    const echo = (await discover(api)).sandboxEcho;
    if (echo !== undefined) return new URL(echo, `${api.baseUrl}/`);
  }
  throw new UsageError('no target to check the units against', {
    code: 'no_check_target',
    hint: `pass --target URL, or store one for this profile: proxyctl config set check-target URL (against the sandbox, its echo is the default)`,
  });
}
