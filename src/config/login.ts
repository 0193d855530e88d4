// Logging in: ask for (or read) the base URL and key, verify the key with GET /account, and only
// then save the profile. Shared by `proxyctl login` and by commands that find no key on a TTY.
import { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { AuthMissingError, InterruptedError, UsageError } from '../errors.js';
import type { ApiClient } from '../api/client.js';
import { buildApiClient, checkBaseUrl } from '../api/index.js';
import { PROFILE_NAME } from './store.js';
import * as shapes from '../api/shapes.js';

export interface AccountSummary {
  balanceUsd?: number;
  discountPercent?: number;
  resellerEnabled?: boolean;
  [k: string]: unknown;
}

export interface LoginResult {
  profile: string;
  baseUrl: string;
  account: AccountSummary;
  client: ApiClient;
}

/** Prompts run on the command's streams; Ctrl-C inside a prompt is an interruption (exit 130). */
export async function runPrompt<T>(ctx: Context, ask: (context: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; signal: AbortSignal }) => Promise<T>): Promise<T> {
  // inquirer ends its output stream when a prompt closes; Node spares process.stderr from that,
  // but not any other stream, so prompts write through a shim that never ends stderr.
  const output = new Writable({
    write: (chunk, encoding, cb) => void ctx.io.stderr.write(chunk, encoding, cb),
  });
  Object.assign(output, { isTTY: ctx.io.stderrIsTTY, columns: ctx.io.columns ?? 80 });
  try {
    return await ask({ input: ctx.io.stdin, output, signal: ctx.signal });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new InterruptedError();
    throw err;
  }
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
export async function promptCredentials(ctx: Context, defaults: { baseUrl?: string | undefined; fixedBaseUrl?: string | undefined }): Promise<{ baseUrl: string; apiKey: string }> {
  const { input, password } = await import('@inquirer/prompts');
  const baseUrl =
    defaults.fixedBaseUrl ??
    (await runPrompt(ctx, (c) =>
      input(
        {
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
        },
        c,
      ),
    ));
  const apiKey = await runPrompt(ctx, (c) =>
    password({ message: 'API key:', mask: true, validate: (v: string) => (v.trim() ? true : 'the key cannot be empty') }, c),
  );
  return { baseUrl: baseUrl.trim(), apiKey: apiKey.trim() };
}

/** Verifies the key against GET /account and saves the profile only when the server accepts it. */
export async function verifyAndSave(ctx: Context, profile: string, baseUrl: string, apiKey: string): Promise<LoginResult> {
  const url = checkBaseUrl(baseUrl, ctx.globals.insecure);
  const client = await buildApiClient(ctx, url, apiKey);
  // A 401 here throws ApiError (exit 3) and nothing is written.
  const account = await client.get<AccountSummary>('/account', shapes.account);
  const store = await ctx.config();
  // Without --profile the profile logged in to becomes current; with it, only when there is none.
  await store.saveProfile(profile, { baseUrl: client.baseUrl, apiKey }, { makeCurrent: ctx.globals.profile === undefined ? 'always' : 'if-none' });
  return { profile, baseUrl: client.baseUrl, account, client };
}

/** A command needed a key and found none: offer to log in on a TTY, else exit 3. */
export async function offerLogin(ctx: Context, profile: string, baseUrl: string | undefined, unknownProfile = false): Promise<ApiClient> {
  const missing = unknownProfile
    ? new AuthMissingError(`there is no profile named "${profile}"`, `see proxyctl profiles list, or create it with proxyctl login --profile ${profile}`)
    : new AuthMissingError(baseUrl ? 'no API key configured' : 'no API key or base URL configured', 'run proxyctl login or set PROXYCTL_API_KEY (and PROXYCTL_BASE_URL)');
  if (!ctx.canPrompt) throw missing;
  const { confirm } = await import('@inquirer/prompts');
  const yes = await runPrompt(ctx, (c) => confirm({ message: `No API key for profile "${profile}". Log in now?`, default: true }, c));
  if (!yes) throw missing;
  const creds = await promptCredentials(ctx, { baseUrl, fixedBaseUrl: ctx.globals.baseUrl });
  const result = await verifyAndSave(ctx, profile, creds.baseUrl, creds.apiKey);
  ctx.notice(`Logged in; saved profile "${profile}".`);
  return result.client;
}
