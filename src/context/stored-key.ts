// Where a profile's API key lives, and every move of it: login saves it in the OS keyring where one
// is usable (config.json then says only `apiKeyRef: "keyring"`), else in the 0600 config file,
// saying so; commands read it from there; logout and `profiles remove` take it out of there;
// `profiles migrate` moves file keys into the keyring. A keyring that is there but refuses (locked,
// access denied) is an error with the way out, never a quiet move to the file.
import { resolve } from 'node:path';
import type { Context } from './types.js';
import { KeyringError, UsageError } from '../errors.js';
import { nonEmpty } from '../globals.js';
import { configDir } from '../config/dirs.js';
import type { ConfigStore, Profile } from '../config/store.js';
import { KEYRING_SERVICE, deleteKeyringKey, readKeyringKey, writeKeyringKey } from '../config/keyring.js';

export type KeyStore = 'keyring' | 'file';

/** Where a stored profile's key lives; undefined when it has none. */
export function keyStoreOf(p: Profile | undefined): KeyStore | undefined {
  if (p?.apiKeyRef === 'keyring') return 'keyring';
  return nonEmpty(p?.apiKey) === undefined ? undefined : 'file';
}

/**
 * The keyring account of a profile: its name, and with PROXYCTL_CONFIG_DIR that dir too, so a second
 * config dir's "default" never reads, overwrites or removes the first one's key.
 */
export function keyringAccount(ctx: Context, profile: string): string {
  return nonEmpty(ctx.io.env.PROXYCTL_CONFIG_DIR) === undefined ? profile : `${profile} (${resolve(configDir(ctx.io.env))})`;
}

/** What made the key go to the file without asking the keyring, when something did: the flag or the variable. */
function fileAskedFor(ctx: Context, insecureStorage: boolean): '--insecure-storage' | 'PROXYCTL_INSECURE_STORAGE' | undefined {
  if (insecureStorage) return '--insecure-storage';
  const v = ctx.io.env.PROXYCTL_INSECURE_STORAGE;
  if (v !== undefined && v !== '' && v !== '0' && v !== 'false') return 'PROXYCTL_INSECURE_STORAGE';
  return undefined;
}

const UNLOCK = 'unlock the keyring (or allow proxyctl to use it)';

/** A keyring operation whose KeyringError comes back as a value, to be worded for what was being done; anything else is thrown. */
async function attempt<T>(op: Promise<T>): Promise<T | KeyringError> {
  try {
    return await op;
  } catch (err) {
    if (err instanceof KeyringError) return err;
    throw err;
  }
}

function reworded(err: KeyringError, message: string, hint?: string): KeyringError {
  return new KeyringError(err.reason, err.detail, message, hint);
}

/** A line for stderr, told after any spinner has stopped. */
export interface KeyNote {
  warn: boolean;
  text: string;
}

/** Prints what saving a login had to say. */
export function tellKeyNotes(ctx: Context, notes: readonly KeyNote[]): void {
  for (const n of notes) {
    if (n.warn) ctx.warn(n.text);
    else ctx.notice(n.text);
  }
}

/**
 * Saves a verified login: the key in the OS keyring where one is usable, else in the config file,
 * with one line saying so (returned, to be told once the spinner is gone). The keyring is written
 * first, so the config file never names a key the keyring does not hold.
 */
export async function saveLogin(
  ctx: Context,
  store: ConfigStore,
  profile: string,
  baseUrl: string,
  apiKey: string,
  opts: { insecureStorage?: boolean | undefined; makeCurrent: 'always' | 'if-none' },
): Promise<{ keyStore: KeyStore; notes: KeyNote[] }> {
  const before = keyStoreOf(store.profile(profile));
  const account = keyringAccount(ctx, profile);
  const asked = fileAskedFor(ctx, opts.insecureStorage === true);
  let noKeyring: string | undefined;
  if (asked === undefined) {
    const failed = await attempt(writeKeyringKey(account, apiKey, ctx.signal));
    if (!(failed instanceof KeyringError)) {
      await store.saveProfile(profile, { baseUrl, apiKeyRef: 'keyring' }, { makeCurrent: opts.makeCurrent });
      const moved = `The key of profile "${profile}" moved from the config file into the OS keyring.`;
      return { keyStore: 'keyring', notes: before === 'file' ? [{ warn: false, text: moved }] : [] };
    }
    if (failed.reason === 'refused') {
      throw reworded(
        failed,
        `the OS keyring refused to store the API key (${failed.detail}); nothing was saved`,
        `${UNLOCK} and log in again, or keep the key in the config file: proxyctl login --insecure-storage`,
      );
    }
    noKeyring = failed.detail;
  }
  await store.saveProfile(profile, { baseUrl, apiKey }, { makeCurrent: opts.makeCurrent });
  const notes: KeyNote[] = [
    noKeyring !== undefined
      ? { warn: true, text: `no usable OS keyring (${noKeyring}): the key is stored in the config file, readable only by you` }
      : // Short enough for an 80-column terminal, the variable's name and all.
        { warn: false, text: `Key stored in the config file, not the OS keyring (${asked}).` },
  ];
  // The key this login replaced must not stay behind in the keyring; if it does, say where.
  if (before === 'keyring') {
    const failed = await attempt(deleteKeyringKey(account, ctx.signal));
    if (failed instanceof KeyringError) notes.push({ warn: true, text: leftBehind(profile, account, failed.detail) });
  }
  return { keyStore: 'file', notes };
}

/** A stored profile's key, from wherever it lives; undefined when it has none. */
export async function readStoredKey(ctx: Context, name: string, p: Profile): Promise<string | undefined> {
  if (p.apiKeyRef !== 'keyring') return nonEmpty(p.apiKey);
  const key = await attempt(readKeyringKey(keyringAccount(ctx, name), ctx.signal));
  if (key instanceof KeyringError) {
    throw key.reason === 'refused'
      ? reworded(
          key,
          `cannot read the API key of profile "${name}" from the OS keyring (${key.detail})`,
          `${UNLOCK} and run the command again, or set PROXYCTL_API_KEY for this run`,
        )
      : reworded(
          key,
          `the API key of profile "${name}" is in the OS keyring, which cannot be reached here (${key.detail})`,
          'run proxyctl where the keyring is reachable, set PROXYCTL_API_KEY for this run, or keep the key in the config file: proxyctl login --insecure-storage',
        );
  }
  if (key === undefined) ctx.warn(`the OS keyring holds no API key for profile "${name}" any more`);
  return nonEmpty(key);
}

/**
 * Takes a profile's key out of the keyring before the profile goes (logout, `profiles remove`). A
 * keyring that refuses stops the removal, so the profile still names the key to remove later; one
 * that cannot be reached here is said, with the entry to remove by hand.
 */
export async function forgetStoredKey(ctx: Context, name: string, p: Profile | undefined): Promise<void> {
  if (p?.apiKeyRef !== 'keyring') return; // a file key goes with the profile
  const account = keyringAccount(ctx, name);
  const failed = await attempt(deleteKeyringKey(account, ctx.signal));
  if (!(failed instanceof KeyringError)) return;
  if (failed.reason === 'refused') {
    throw reworded(
      failed,
      `the OS keyring refused to remove the API key of profile "${name}" (${failed.detail}); the profile was kept`,
      `${UNLOCK} and run the command again`,
    );
  }
  ctx.warn(leftBehind(name, account, failed.detail));
}

function leftBehind(name: string, account: string, detail: string): string {
  return `the OS keyring could not be reached (${detail}): the key of profile "${name}" stays in it (service "${KEYRING_SERVICE}", account "${account}"); remove it with your keyring's tool`;
}

/**
 * `profiles migrate`: each profile whose key is in the config file gets it moved into the keyring,
 * one at a time (the keyring written, then the file's copy replaced by the reference). Stops at the
 * first failure; the profiles moved before it stay moved. Returns the names moved.
 */
export async function migrateKeys(ctx: Context, store: ConfigStore): Promise<string[]> {
  const asked = fileAskedFor(ctx, false);
  if (asked !== undefined)
    throw new UsageError(`${asked} is set: keys stay in the config file`, { hint: 'unset it to move them into the OS keyring' });
  const moved: string[] = [];
  const inFile = Object.entries(store.profiles())
    .filter(([, p]) => keyStoreOf(p) === 'file')
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [name, p] of inFile) {
    const key = p.apiKey!;
    const failed = await attempt(writeKeyringKey(keyringAccount(ctx, name), key, ctx.signal));
    if (failed instanceof KeyringError) {
      const done = moved.length ? ` (moved before it: ${moved.join(', ')})` : '';
      throw failed.reason === 'refused'
        ? reworded(
            failed,
            `the OS keyring refused to store the key of profile "${name}" (${failed.detail}); it stays in the config file${done}`,
            `${UNLOCK} and run proxyctl profiles migrate again`,
          )
        : reworded(failed, `no usable OS keyring (${failed.detail}); the keys stay in the config file${done}`);
    }
    // Another login may have replaced the key meanwhile: then the file keeps the newer one.
    if (await store.moveKeyToKeyring(name, key)) moved.push(name);
  }
  return moved;
}

/** The keyring account of a profile's shared-ledger password (beside its API key's). */
const ledgerAccount = (ctx: Context, profile: string) => `ledger-url of ${keyringAccount(ctx, profile)}`;

/**
 * Keeps the password of a profile's shared ledger (`config set ledger-url`) where its API key would
 * go: the OS keyring where one is usable, else the 0600 config file, saying so. The URL itself is
 * stored without it. Returns what to tell.
 */
export async function saveLedgerPassword(
  ctx: Context,
  store: ConfigStore,
  profile: string,
  password: string | undefined,
): Promise<KeyNote[]> {
  const before = store.profile(profile);
  if (password === undefined) {
    await forgetLedgerPassword(ctx, profile, before);
    await store.setProfileSetting(profile, 'ledgerPassword', undefined);
    await store.setProfileSetting(profile, 'ledgerPasswordRef', undefined);
    return [];
  }
  const asked = fileAskedFor(ctx, false);
  let noKeyring: string | undefined;
  if (asked === undefined) {
    const failed = await attempt(writeKeyringKey(ledgerAccount(ctx, profile), password, ctx.signal));
    if (!(failed instanceof KeyringError)) {
      await store.setProfileSetting(profile, 'ledgerPassword', undefined);
      await store.setProfileSetting(profile, 'ledgerPasswordRef', 'keyring');
      return [];
    }
    if (failed.reason === 'refused') {
      throw reworded(
        failed,
        `the OS keyring refused to store the shared ledger's password (${failed.detail}); nothing was saved`,
        `${UNLOCK} and run the command again, or set PROXYCTL_INSECURE_STORAGE=1 to keep it in the config file`,
      );
    }
    noKeyring = failed.detail;
  }
  await store.setProfileSetting(profile, 'ledgerPasswordRef', undefined);
  await store.setProfileSetting(profile, 'ledgerPassword', password);
  return [
    noKeyring !== undefined
      ? {
          warn: true,
          text: `no usable OS keyring (${noKeyring}): the ledger's password is stored in the config file, readable only by you`,
        }
      : { warn: false, text: `The ledger's password is stored in the config file, not the OS keyring (${asked}).` },
  ];
}

/** The password of a profile's shared ledger, from wherever it lives; undefined when it has none. */
export async function readLedgerPassword(ctx: Context, name: string, p: Profile): Promise<string | undefined> {
  if (p.ledgerPasswordRef !== 'keyring') return nonEmpty(p.ledgerPassword);
  const key = await attempt(readKeyringKey(ledgerAccount(ctx, name), ctx.signal));
  if (key instanceof KeyringError) {
    throw reworded(
      key,
      `cannot read the shared ledger's password of profile "${name}" from the OS keyring (${key.detail})`,
      `${UNLOCK} and run the command again, or set PROXYCTL_LEDGER_URL for this run`,
    );
  }
  return nonEmpty(key);
}

/** Takes a profile's ledger password out of the keyring (config unset ledger-url, profiles remove). */
export async function forgetLedgerPassword(ctx: Context, name: string, p: Profile | undefined): Promise<void> {
  if (p?.ledgerPasswordRef !== 'keyring') return;
  const failed = await attempt(deleteKeyringKey(ledgerAccount(ctx, name), ctx.signal));
  if (failed instanceof KeyringError) ctx.warn(leftBehind(name, ledgerAccount(ctx, name), failed.detail));
}
