// ctx.ledger(): the journal and budget holds of the account the command's API client speaks for,
// with the spending policy of the profile in use (`config set max-spend-per-day …`): this machine's
// files, or the team's shared store when a ledger URL is set (shared-store.ts), whose settings are
// then the team's, read from the database at the moment of each charge.
import type { Context } from './types.js';
import { fileLedger, type Ledger, policyOf, type SettingsSource } from '../ledger/index.js';
import type { ConfigStore, ProfileField } from '../config/store.js';
import { profileInUse } from './credentials.js';
import { localLedgerDir, sharedStoreOf } from './shared-store.js';

/** A profile's money settings in the config file (the settings source of one machine). */
function profileSettingsSource(store: ConfigStore, profile: string): SettingsSource {
  return {
    where: store.path,
    shared: false,
    read: async () => ({ ...(store.profileNow(profile) ?? {}) }),
    set: (name, value) => store.setProfileSetting(profile, name as ProfileField, value as never),
    // Under the config file's lock, from the value in the file as it is then.
    update: (name, change) => store.updateProfileSetting(profile, name as ProfileField, change as never),
  };
}

/**
 * Where the money settings of the profile in use live: with a shared ledger, the team's (in the
 * database, per account: the API key's); else the profile's, in config.json. Budgets and policy are
 * read through it at each charge; other money settings (customer prices) can use it by name.
 */
export async function settingsSource(ctx: Context): Promise<SettingsSource> {
  const shared = await sharedStoreOf(ctx);
  const store = await ctx.config();
  if (!shared) return profileSettingsSource(store, profileInUse(ctx, store));
  const api = await ctx.api();
  return shared.account(api.accountId(), fileLedger(localLedgerDir(ctx), api.accountId()).local).settings;
}

export async function openLedger(ctx: Context): Promise<Ledger> {
  const [api, store, shared] = await Promise.all([ctx.api(), ctx.config(), sharedStoreOf(ctx)]);
  const profile = profileInUse(ctx, store);
  const files = fileLedger(localLedgerDir(ctx), api.accountId());
  const common = { source: 'cli' as const, profile, warn: (m: string) => ctx.warn(m), now: ctx.now };
  if (shared) {
    const team = shared.account(api.accountId(), files.local);
    return {
      ...common,
      journal: team.journal,
      holds: team.holds,
      local: files.local,
      shared: true,
      settings: team.settings,
      // The team's budgets and policy, read from the database at every check.
      readPolicy: async () => policyOf(await team.settings.read()),
    };
  }
  return {
    ...common,
    ...files,
    settings: profileSettingsSource(store, profile),
    policy: policyOf(store.profile(profile)),
    // Every check reads the file again: a budget lowered while a run or a server is at work holds
    // from its next charge on.
    readPolicy: () => policyOf(store.profileNow(profile)),
  };
}
