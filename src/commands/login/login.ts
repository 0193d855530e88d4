// `proxyctl login`: prompts (or reads stdin), verifies with GET /account, then saves the profile.
import type { Input } from './login.command.js';
import { show, type Result } from '../../kit/action.js';
import { readAllText } from '../../io.js';
import type { Context } from '../../context/index.js';
import { ApiError, UsageError } from '../../errors.js';
import { money, percent, withSpinner } from '../../output/index.js';
import { checkProfileName, promptCredentials, tellKeyNotes, verifyAndSave, type AccountSummary } from '../../context/login.js';
import { profileInUse } from '../../context/credentials.js';

export interface LoginOptions {
  profile: string;
  baseUrl: string | undefined;
  apiKeyStdin: boolean;
  /** --insecure-storage: the key goes to the config file even where a keyring is usable. */
  insecureStorage?: boolean | undefined;
}

export async function logIn(opts: LoginOptions, ctx: Context): Promise<{ profile: string; baseUrl: string; account: AccountSummary }> {
  let baseUrl = opts.baseUrl;
  let apiKey: string;
  if (opts.apiKeyStdin) {
    if (!baseUrl) throw new UsageError('--api-key-stdin needs a base URL', { hint: 'pass --base-url URL or set PROXYCTL_BASE_URL' });
    apiKey = (await readAllText(ctx.io.stdin)).trim();
    if (!apiKey) throw new UsageError('no API key on stdin');
    if (/\s/.test(apiKey)) throw new UsageError('the API key on stdin contains whitespace; pass only the key');
  } else {
    const creds = await promptCredentials(ctx, { baseUrl, fixedBaseUrl: ctx.globals.baseUrl });
    baseUrl = creds.baseUrl;
    apiKey = creds.apiKey;
  }
  try {
    const r = await withSpinner(ctx, 'Checking the API key…', () =>
      verifyAndSave(ctx, opts.profile, baseUrl!, apiKey, { insecureStorage: opts.insecureStorage }),
    );
    tellKeyNotes(ctx, r.keyNotes);
    return { profile: r.profile, baseUrl: r.baseUrl, account: r.account };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      throw new ApiError(
        { status: err.status, code: err.code, type: err.type, message: err.message, requestId: err.requestId, raw: err.raw },
        'the key was rejected and nothing was saved; check the key and the base URL',
      );
    }
    throw err;
  }
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  if (flags.apiKey !== undefined) {
    // Never echoed: the value is a key, or a guess at one.
    throw new UsageError('login takes no --api-key: keys never go on the command line (shell history, ps); nothing was saved', {
      hint: 'run proxyctl login to be asked for it (hidden), or pipe it in: printf %s "$KEY" | proxyctl login --api-key-stdin',
    });
  }
  const store = await ctx.config();
  const profile = checkProfileName(profileInUse(ctx, store));
  const existing = store.profile(profile);
  const result = await logIn(
    {
      profile,
      baseUrl: ctx.globals.baseUrl ?? existing?.baseUrl,
      apiKeyStdin: flags.apiKeyStdin === true,
      insecureStorage: flags.insecureStorage === true,
    },
    ctx,
  );
  ctx.notice(`Logged in to ${result.baseUrl}; saved as profile "${result.profile}".`);
  return show(result.account, {
    columns: [
      { header: 'profile', value: () => result.profile },
      { header: 'balance', value: (a) => a.balanceUsd, format: (a) => money(a.balanceUsd) },
      { header: 'discount', value: (a) => a.discountPercent, format: (a) => percent(a.discountPercent) },
      {
        header: 'reseller',
        value: (a) => a.resellerEnabled,
        format: (a, p) => (a.resellerEnabled === false ? p.red('disabled') : p.green('enabled')),
      },
    ],
  });
}
