// ctx.api(): the ApiClient for a command, from flag > environment > stored profile. A missing key
// offers an interactive login on a terminal (login.ts), else exits 3.
import type { Context } from './types.js';
import { checkBaseUrl, type ApiClient } from '../api/index.js';
import { buildApiClient } from './client.js';
import { resolveCredentials } from './credentials.js';

export async function createApiClient(ctx: Context, insecure = false): Promise<ApiClient> {
  const creds = await resolveCredentials(ctx);
  if (!creds.baseUrl || !creds.apiKey) {
    // Validate a base URL that is there before offering to log in with it.
    if (creds.baseUrl) checkBaseUrl(creds.baseUrl, insecure);
    const { offerLogin } = await import('./login.js');
    return offerLogin(ctx, creds.profile, creds.baseUrl, ctx.globals.profile !== undefined && !creds.profileExists);
  }
  return buildApiClient(ctx, checkBaseUrl(creds.baseUrl, insecure), creds.apiKey);
}
