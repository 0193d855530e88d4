// Where the base URL and API key come from: flag > environment > stored profile.
// (Stored profiles are read by src/config/store.ts once it exists; until then env and flags.)
import type { Context } from '../context.js';

export interface Credentials {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Name of the profile that supplied something, if any. */
  profile: string | undefined;
}

export async function resolveCredentials(ctx: Context): Promise<Credentials> {
  const envKey = ctx.io.env.PROXYCTL_API_KEY;
  return {
    baseUrl: ctx.globals.baseUrl,
    apiKey: envKey !== undefined && envKey !== '' ? envKey : undefined,
    profile: undefined,
  };
}
