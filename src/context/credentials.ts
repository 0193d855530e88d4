// Where the base URL and API key come from: flag > environment > stored profile (whose key is in
// the OS keyring or the config file, stored-key.ts).
import type { Context } from './types.js';
import { nonEmpty } from '../globals.js';
import { DEFAULT_PROFILE, type ConfigStore } from '../config/store.js';
import { readStoredKey } from './stored-key.js';

export interface Credentials {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** The profile in use (named by --profile/PROXYCTL_PROFILE, else the current one). */
  profile: string;
  /** True when that profile exists in the config file. */
  profileExists: boolean;
}

export async function resolveCredentials(ctx: Context): Promise<Credentials> {
  const envKey = nonEmpty(ctx.io.env.PROXYCTL_API_KEY);
  const flagOrEnvBase = ctx.globals.baseUrl;
  // Flags and environment alone are enough: do not open (or warn about) a config file we do not need.
  if (envKey && flagOrEnvBase && ctx.globals.profile === undefined) {
    return { baseUrl: flagOrEnvBase, apiKey: envKey, profile: DEFAULT_PROFILE, profileExists: false };
  }
  const store = await ctx.config();
  const name = profileInUse(ctx, store);
  const stored = store.profile(name);
  return {
    baseUrl: flagOrEnvBase ?? nonEmpty(stored?.baseUrl),
    // The environment's key wins without a look at the keyring.
    apiKey: envKey ?? (stored ? await readStoredKey(ctx, name, stored) : undefined),
    profile: name,
    profileExists: stored !== undefined,
  };
}

/** The profile a command acts on: --profile/PROXYCTL_PROFILE, else the current one, else "default". */
export function profileInUse(ctx: Context, store: ConfigStore): string {
  return ctx.globals.profile ?? store.currentProfile() ?? DEFAULT_PROFILE;
}
