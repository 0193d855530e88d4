// Profiles, the current profile and profile settings, in one JSON file in a config dir that only
// the user can read (dir 0700, file 0600), with the API keys that are not in the OS keyring (keyring.ts); the discovery cache uses the same machinery in
// a file of its own (openKeyValueFile), the purchase records are appended lines (records.ts). Several proxyctl processes may share a file at once
// (parallel logins, bulk creates recording purchases), so every change is a read-modify-write done under a
// cross-process lock (proper-lockfile: a lock dir beside the file, kept fresh while held, taken
// over once stale, i.e. after its holder was killed), re-reading the file inside the lock and
// replacing it atomically (write-file-atomic: temp file, fsync, rename). Readers need no lock: the
// file is only ever replaced whole. Loaded lazily: only commands that read or write settings
// import this module's dependencies, never `--help`.
import fs, { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../io.js';
import { UsageError } from '../errors.js';
import { configDir } from './dirs.js';

export interface Profile {
  baseUrl?: string | undefined;
  /** The key itself, when it lives in this file (no usable keyring, or `login --insecure-storage`). */
  apiKey?: string | undefined;
  /** Where the key lives when not in this file: the OS keyring (src/config/keyring.ts). Never both. */
  apiKeyRef?: 'keyring' | undefined;
  /** `proxyctl config set check-target URL`: the default target of `units check`. */
  checkTarget?: string | undefined;
  /**
   * The webhook URL `webhook disable` turned off (the API forgets it) and the API it was set on:
   * what `webhook enable` sets again.
   */
  disabledWebhook?: { url: string; baseUrl: string } | undefined;
  /** `config set max-spend-per-run USD`: what one command may charge in total. */
  maxSpendPerRun?: number | undefined;
  /** `config set max-spend-per-day USD`: what all runs together may charge in any 24 hours. */
  maxSpendPerDay?: number | undefined;
  /** `config set allowed-periods 7d,30d`. */
  allowedPeriods?: string[] | undefined;
  /** `config set allowed-countries US,DE`. */
  allowedCountries?: string[] | undefined;
  /** `config set default-markup 30%`: what a customer without prices of their own is billed above cost, in percent. */
  defaultMarkupPercent?: number | undefined;
  /** `customers set NAME …`: each customer's markup (percent) and fixed prices per period (USD). */
  customerPrices?: Record<string, { markupPercent?: number | undefined; prices?: Record<string, number> | undefined }> | undefined;
  /**
   * `config set ledger-url postgres://…`: the team's shared ledger, its password left out (it is
   * kept where API keys are: `ledgerPasswordRef: "keyring"`, or `ledgerPassword` in this 0600 file).
   */
  ledgerUrl?: string | undefined;
  ledgerPassword?: string | undefined;
  ledgerPasswordRef?: 'keyring' | undefined;
}

/** Profile settings that `proxyctl config set/get/unset` manage (not the key or base URL). */
export type ProfileSetting =
  | 'checkTarget'
  | 'maxSpendPerRun'
  | 'maxSpendPerDay'
  | 'allowedPeriods'
  | 'allowedCountries'
  | 'defaultMarkupPercent'
  | 'ledgerUrl';
/** What a profile holds besides its key and base URL: its settings, and what commands remember for it. */
export type ProfileField = Exclude<keyof Profile, 'baseUrl' | 'apiKey' | 'apiKeyRef'>;

interface StoreShape {
  currentProfile?: string;
  profiles?: Record<string, Profile>;
  /** Caches kept here before they moved to their own files (dropped at the next write). */
  cache?: unknown;
  /** A key/value file's entries (openKeyValueFile). */
  entries?: Record<string, unknown>;
  [k: string]: unknown;
}

/** A small key/value store for caches (e.g. discovered operations per base URL). */
export interface CacheStore {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): Promise<void>;
}

export interface ConfigStore {
  /** The config file. */
  readonly path: string;
  /** Profiles by name. */
  profiles(): Record<string, Profile>;
  profile(name: string): Profile | undefined;
  /** The profile as the file says now, read again (another process may have changed it since). */
  profileNow(name: string): Profile | undefined;
  currentProfile(): string | undefined;
  /**
   * Saves a profile. With `makeCurrent: 'if-none'` it also becomes the current profile when there
   * is none at the moment of writing (decided under the lock, against the file as it is then).
   */
  saveProfile(name: string, profile: Profile, opts?: { makeCurrent?: 'always' | 'if-none' }): Promise<void>;
  /**
   * Replaces a profile's key in this file by the keyring reference, if the file still holds `key`
   * (decided under the lock); false when another login changed it meanwhile.
   */
  moveKeyToKeyring(name: string, key: string): Promise<boolean>;
  /** Removes a profile (and clears the current profile when it was that one). */
  removeProfile(name: string): Promise<{ removed: boolean; wasCurrent: boolean }>;
  /**
   * Takes the key (or the keyring reference) out of a profile and keeps everything else: base URL,
   * budgets, policy, what commands remember. The profile as it is left; undefined when there is none.
   */
  forgetKey(name: string): Promise<Profile | undefined>;
  /** Makes a stored profile current; false (and nothing written) when there is no such profile. */
  useProfile(name: string): Promise<boolean>;
  /** Sets (or, with undefined, removes) one setting of a profile, creating the profile if needed. */
  setProfileSetting<K extends ProfileField>(name: string, key: K, value: Profile[K] | undefined): Promise<void>;
  /**
   * Changes one setting from its value in the file as it is under the lock (so two processes
   * changing different entries of one map both keep theirs); `change` returning undefined removes it.
   */
  updateProfileSetting<K extends ProfileField>(
    name: string,
    key: K,
    change: (value: Profile[K] | undefined) => Profile[K] | undefined,
  ): Promise<void>;
}

export const DEFAULT_PROFILE = 'default';

/** What a profile name may look like: no dots or slashes, so it is safe as an object key. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A lock not refreshed for this long belongs to a process that died holding it; it is taken over. */
const LOCK_STALE_MS = 5000;
/**
 * How long a write waits for the lock: longer than the stale time, so a dead holder never blocks
 * it, and long enough for a queue of busy writers on a loaded machine (each holds it for a read
 * and an atomic write). After LOCK_NOTICE_MS the wait is said on stderr.
 */
const LOCK_WAIT_MS = 30_000;
const LOCK_NOTICE_MS = 5000;

/** The dir holds API keys (or values of the account): create it 0700, and tighten it if we find it open to others. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  } catch {
    // A dir we cannot chmod (not ours) is still usable; the file-mode warning covers the key.
  }
}

/** A warning when the file holding keys is readable by group or others (e.g. restored from a backup). */
export function permissionWarning(path: string): string | undefined {
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      return `config file ${path} is readable by other users (mode ${mode.toString(8).padStart(3, '0')}); it holds API keys: run chmod 600 ${JSON.stringify(path)}`;
    }
  } catch {
    // No file yet: nothing to warn about.
  }
  return undefined;
}

/** The file as it is now; a missing (or empty) file is an empty config, a broken one is never overwritten. */
function readStore(path: string): StoreShape {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read the config file ${path}: ${(err as Error).message}`);
  }
  if (text.trim() === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    data = err;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof Error) {
    const why = data instanceof Error ? data.message : 'it is not a JSON object';
    throw new UsageError(`cannot read the config file ${path}: ${why}`, {
      hint: 'fix the file, or move it away and run proxyctl login again',
    });
  }
  return data as StoreShape;
}

/** Runs `fn` holding the file's cross-process lock; `fn` gets the atomic writer. `what` names the file in messages. */
async function withLock<T>(
  path: string,
  warn: (message: string) => void,
  fn: (write: (data: StoreShape) => Promise<void>) => Promise<T>,
  what = 'the config file',
): Promise<T> {
  // Loaded before the lock is taken, so the time it is held is only the read and the write.
  const [{ default: lockfile }, { default: writeFileAtomic }] = await Promise.all([import('proper-lockfile'), import('write-file-atomic')]);
  let lost: Error | undefined;
  let release: () => Promise<void>;
  const waiting = setTimeout(() => warn(`waiting for the lock on ${what} ${path}: another proxyctl process is writing it`), LOCK_NOTICE_MS);
  waiting.unref();
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: { retries: 10_000, factor: 1.5, minTimeout: 15, maxTimeout: 250, randomize: true, maxRetryTime: LOCK_WAIT_MS },
      // Only possible if this process froze past the stale time; the write below then refuses.
      onCompromised: (err) => {
        lost = err;
      },
    });
  } catch (err) {
    const lock = `${path}.lock`;
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new UsageError(`${what} ${path} is locked by another proxyctl process (waited ${LOCK_WAIT_MS / 1000}s); nothing was saved`, {
        code: 'config_locked',
        hint: `try again; if no proxyctl is running, remove the lock: rmdir ${JSON.stringify(lock)}`,
      });
    }
    throw new UsageError(`cannot lock ${what} ${path}: ${(err as Error).message}; nothing was saved`, { code: 'config_locked' });
  } finally {
    clearTimeout(waiting);
  }
  const write = async (data: StoreShape): Promise<void> => {
    if (lost) throw new UsageError(`lost the lock on ${what} ${path} (${lost.message}); nothing was saved`, { code: 'config_locked' });
    try {
      await writeFileAtomic(path, `${JSON.stringify(data, null, '\t')}\n`, { mode: 0o600 });
    } catch (err) {
      throw new UsageError(`cannot write ${what} ${path}: ${(err as Error).message}; nothing was saved`);
    }
  };
  try {
    return await fn(write);
  } finally {
    await release().catch(() => undefined);
  }
}

type Change = (data: StoreShape) => unknown;

/**
 * One JSON object in a file that several processes share: read once, and again after each write;
 * every change a read-modify-write of the file as it is then, under its lock, replaced atomically.
 * Changes from this process (e.g. the items of one bulk create finishing together) wait for the
 * write in progress and then go in together, rather than each competing for the lock.
 */
function openJsonFile(path: string, warn: (message: string) => void, what: string) {
  let snapshot = readStore(path);

  const apply = (changes: Change[]): Promise<unknown[]> =>
    withLock(
      path,
      warn,
      async (write) => {
        const data = readStore(path);
        const before = JSON.stringify(data);
        const results = changes.map((change) => change(data));
        if (JSON.stringify(data) !== before) await write(data);
        snapshot = data;
        return results;
      },
      what,
    );

  let pending: { change: Change; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  let draining = false;
  const drain = async (): Promise<void> => {
    draining = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        const results = await apply(batch.map((p) => p.change));
        for (const [i, p] of batch.entries()) p.resolve(results[i]);
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    draining = false;
  };
  return {
    read: (): StoreShape => snapshot,
    update: <T>(change: (data: StoreShape) => T): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        pending.push({ change, resolve: resolve as (v: unknown) => void, reject });
        if (!draining) void drain();
      }),
  };
}

/**
 * A key/value store of stamped entries (`at` or `fetchedAt`, pruned after two days) in its own
 * file (discovery results in the cache dir), never in the config file. Each change rewrites the
 * whole file: right for a few entries written rarely, not for a record per purchase (records.ts).
 */
export function openKeyValueFile(dir: string, name: string, warn: (message: string) => void, what: string): CacheStore {
  ensurePrivateDir(dir);
  const file = openJsonFile(join(dir, name), warn, what);
  return {
    get: <T>(key: string) => file.read().entries?.[key] as T | undefined,
    set: (key, value) =>
      file.update((data) => {
        data.entries = { ...pruneCache((data.entries as Record<string, unknown>) ?? {}, Date.now()), [key]: value };
      }),
  };
}

export async function openConfigStore(env: Env, warn: (message: string) => void, configName = 'config'): Promise<ConfigStore> {
  const dir = configDir(env);
  ensurePrivateDir(dir);
  const path = join(dir, `${configName}.json`);
  const w = permissionWarning(path);
  if (w) warn(w);
  const file = openJsonFile(path, warn, 'the config file');
  // Profiles and settings only: caches from before they moved out are dropped at the next write.
  const update = <T>(change: (data: StoreShape) => T): Promise<T> =>
    file.update((data) => {
      delete data.cache;
      return change(data);
    });
  const profiles = (): Record<string, Profile> => ({ ...(file.read().profiles ?? {}) });
  return {
    path,
    profiles,
    profile: (name) => profiles()[name],
    profileNow: (name) => readStore(path).profiles?.[name],
    currentProfile: () => file.read().currentProfile,
    saveProfile: (name, profile, opts = {}) =>
      update((data) => {
        // A new login keeps the profile's settings (check-target); it replaces the key and URL.
        data.profiles = { ...(data.profiles ?? {}), [name]: { ...settingsOf(data.profiles?.[name]), ...profile } };
        if (opts.makeCurrent === 'always' || (opts.makeCurrent === 'if-none' && data.currentProfile === undefined))
          data.currentProfile = name;
      }),
    moveKeyToKeyring: (name, key) =>
      update((data) => {
        const p = data.profiles?.[name];
        if (p?.apiKey !== key) return false;
        const { apiKey: _k, ...rest } = p;
        data.profiles = { ...data.profiles, [name]: { ...rest, apiKeyRef: 'keyring' } };
        return true;
      }),
    removeProfile: (name) =>
      update((data) => {
        const all = { ...(data.profiles ?? {}) };
        if (!(name in all)) return { removed: false, wasCurrent: false };
        delete all[name];
        data.profiles = all;
        const wasCurrent = data.currentProfile === name;
        if (wasCurrent) delete data.currentProfile;
        return { removed: true, wasCurrent };
      }),
    forgetKey: (name) =>
      update((data) => {
        const p = data.profiles?.[name];
        if (!p) return undefined;
        const { apiKey: _k, apiKeyRef: _r, ...rest } = p;
        data.profiles = { ...data.profiles, [name]: rest };
        return rest;
      }),
    useProfile: (name) =>
      update((data) => {
        if (!data.profiles?.[name]) return false;
        data.currentProfile = name;
        return true;
      }),
    setProfileSetting: (name, key, value) =>
      update((data) => {
        const next: Profile = { ...(data.profiles?.[name] ?? {}) };
        if (value === undefined) delete next[key];
        else next[key] = value;
        data.profiles = { ...(data.profiles ?? {}), [name]: next };
      }),
    updateProfileSetting: (name, key, change) =>
      update((data) => {
        const next: Profile = { ...(data.profiles?.[name] ?? {}) };
        const value = change(next[key]);
        if (value === undefined) delete next[key];
        else next[key] = value;
        data.profiles = { ...(data.profiles ?? {}), [name]: next };
      }),
  };
}

/** "sk_live_abcdef123456" → "sk_l…3456": enough to tell keys apart, never enough to use one. */
export function maskKey(key: string | undefined): string {
  if (!key) return '-';
  if (key.length <= 8) return `…${key.slice(-2)}`;
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

/** Cache entries outlive every use after two days (discovery TTL 1 h, idempotency keys 24 h). */
export const CACHE_MAX_AGE_MS = 48 * 3600 * 1000;

/** Drops entries stamped (`at` or `fetchedAt`) longer ago than any reader would trust them. */
export function pruneCache(cache: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(cache)) {
    const e = v as { at?: unknown; fetchedAt?: unknown } | null;
    const stamp = typeof e?.at === 'number' ? e.at : typeof e?.fetchedAt === 'number' ? e.fetchedAt : undefined;
    if (stamp === undefined || nowMs - stamp < CACHE_MAX_AGE_MS) kept[k] = v;
  }
  return kept;
}

/** The settings of a profile, without its key (or where the key lives) and base URL. */
function settingsOf(p: Profile | undefined): Profile {
  if (!p) return {};
  const { baseUrl: _u, apiKey: _k, apiKeyRef: _r, ...rest } = p;
  return rest;
}
