// Logging in: ask for (or read) the base URL and key, verify the key with GET /account, and only
// then save the profile. Shared by `proxyctl login` and by commands that find no key on a TTY.
import { getAccount } from '../api/endpoints.js';
import type { Context } from './types.js';
import { AuthMissingError, UsageError } from '../errors.js';
import type { ApiClient } from '../api/client.js';
import { checkBaseUrl, wasTrimmed } from '../api/index.js';
import { PROFILE_NAME } from '../config/store.js';
import type * as shapes from '../api/shapes.js';
import { buildApiClient } from './client.js';
import { saveLogin, tellKeyNotes, type KeyNote, type KeyStore } from './stored-key.js';

export type AccountSummary = shapes.Account;
export { tellKeyNotes } from './stored-key.js';

export interface LoginResult {
  profile: string;
  baseUrl: string;
  account: AccountSummary;
  client: ApiClient;
  /** Where the key was saved. */
  keyStore: KeyStore;
  /** What to tell about where it was saved, once any spinner has stopped (tellKeyNotes). */
  keyNotes: KeyNote[];
}

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name "${name}" (letters, digits, "-" and "_", up to 64 characters)`);
  }
  return name;
}

/**
 * Interactive: the base URL (pre-filled from the profile; not asked when given by --base-url or
 * PROXYCTL_BASE_URL) and the key, hidden.
 */
export async function promptCredentials(
  ctx: Context,
  defaults: { baseUrl?: string | undefined; fixedBaseUrl?: string | undefined },
): Promise<{ baseUrl: string; apiKey: string }> {
  const ask = await ctx.prompt.open({
    unavailable: new UsageError('login needs a terminal to prompt for the key', {
      hint: 'pipe the key in with --api-key-stdin (and --base-url), or set PROXYCTL_API_KEY',
    }),
  });
  const baseUrl =
    defaults.fixedBaseUrl ??
    (await ask.input({
      message: 'API base URL (without /api/reseller/v1):',
      ...(defaults.baseUrl ? { default: defaults.baseUrl } : {}),
      validate: (v: string) => {
        try {
          checkBaseUrl(v.trim(), ctx.globals.insecure);
          return true;
        } catch (e) {
          return (e as Error).message;
        }
      },
    }));
  const apiKey = await ask.password({
    message: 'API key:',
    mask: true,
    validate: (v: string) => (v.trim() ? true : 'the key cannot be empty'),
  });
  return { baseUrl: baseUrl.trim(), apiKey: apiKey.trim() };
}

/**
 * Verifies the key against GET /account and saves the profile only when the server accepts it: the
 * key in the OS keyring where one is usable, else (or with `insecureStorage`) in the config file.
 */
export async function verifyAndSave(
  ctx: Context,
  profile: string,
  baseUrl: string,
  apiKey: string,
  opts: { insecureStorage?: boolean | undefined } = {},
): Promise<LoginResult> {
  const url = checkBaseUrl(baseUrl, ctx.globals.insecure);
  const client = buildApiClient(ctx, url, apiKey);
  if (wasTrimmed(baseUrl)) ctx.notice(`base URL ${client.baseUrl}: proxyctl adds /api/reseller/v1 to it itself`);
  // A 401 here throws ApiError (exit 3) and nothing is written.
  const account = await getAccount(client);
  const store = await ctx.config();
  // Without --profile the profile logged in to becomes current; with it, only when there is none.
  const { keyStore, notes } = await saveLogin(ctx, store, profile, client.baseUrl, apiKey, {
    insecureStorage: opts.insecureStorage,
    makeCurrent: ctx.globals.profile === undefined ? 'always' : 'if-none',
  });
  return { profile, baseUrl: client.baseUrl, account, client, keyStore, keyNotes: notes };
}

/** A command needed a key and found none: offer to log in on a TTY, else exit 3. */
export async function offerLogin(ctx: Context, profile: string, baseUrl: string | undefined, unknownProfile = false): Promise<ApiClient> {
  const missing = unknownProfile
    ? new AuthMissingError(
        `there is no profile named "${profile}"`,
        `see proxyctl profiles list, or create it with proxyctl login --profile ${profile}`,
      )
    : new AuthMissingError(
        baseUrl ? 'no API key configured' : 'no API key or base URL configured',
        'run proxyctl login or set PROXYCTL_API_KEY (and PROXYCTL_BASE_URL)',
      );
  const ask = await ctx.prompt.open({ unavailable: missing });
  // Enter alone logs in (it neither spends nor destroys); anything but y/yes/n/no is still asked again.
  await ask.confirm({ message: `No API key for profile "${profile}". Log in now?`, default: true }, missing);
  const creds = await promptCredentials(ctx, { baseUrl, fixedBaseUrl: ctx.globals.baseUrl });
  const result = await verifyAndSave(ctx, profile, creds.baseUrl, creds.apiKey);
  tellKeyNotes(ctx, result.keyNotes);
  ctx.notice(`Logged in; saved profile "${profile}".`);
  return result.client;
}
