// The webhook URL `webhook disable` turned off, remembered in the profile in use: once disabled,
// the API keeps neither URL nor secret, so this is what lets `webhook enable` set it again. It is
// kept with the API it was set on, and means nothing to another one.
import type { ApiClient } from '../../api/index.js';
import type { Profile } from '../../config/store.js';
import type { Context } from '../../context/index.js';
import { profileInUse } from '../../context/credentials.js';

export type DisabledWebhook = NonNullable<Profile['disabledWebhook']>;

export interface Remembered {
  profile: string;
  /** What was remembered for this API; undefined when nothing was, or it was for another API. */
  saved: DisabledWebhook | undefined;
  /** Remembered for another API (another base URL) under the same profile. */
  elsewhere: DisabledWebhook | undefined;
}

export async function rememberedWebhook(ctx: Context, api: ApiClient): Promise<Remembered> {
  const store = await ctx.config();
  const profile = profileInUse(ctx, store);
  const saved = store.profile(profile)?.disabledWebhook;
  const here = saved !== undefined && saved.baseUrl === api.baseUrl;
  return { profile, saved: here ? saved : undefined, elsewhere: here ? undefined : saved };
}

/** Remembers `url` for this API (written 0600, atomically, under the config file's lock). */
export async function rememberWebhook(ctx: Context, api: ApiClient, url: string): Promise<void> {
  const store = await ctx.config();
  await store.setProfileSetting(profileInUse(ctx, store), 'disabledWebhook', { url, baseUrl: api.baseUrl });
}

/** Forgets what was remembered for this API (nothing is written when nothing was). */
export async function forgetWebhook(ctx: Context, api: ApiClient): Promise<void> {
  const { profile, saved } = await rememberedWebhook(ctx, api);
  if (saved) await (await ctx.config()).setProfileSetting(profile, 'disabledWebhook', undefined);
}
