// Profiles and the current profile, stored with conf in a config dir that only the user can read
// (dir 0700, file 0600). Loaded lazily: conf (and its ajv schema machinery) is only imported by
// commands that read or write settings, never by `--help`.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import type { Env } from '../io.js';
import { UsageError } from '../errors.js';

export interface Profile {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
}

interface StoreShape {
  currentProfile?: string;
  profiles?: Record<string, Profile>;
  [k: string]: unknown;
}

/** A small key/value store for caches (e.g. discovered operations per base URL). */
export interface CacheStore {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

export interface ConfigStore {
  /** The config file. */
  readonly path: string;
  /** Profiles by name. */
  profiles(): Record<string, Profile>;
  profile(name: string): Profile | undefined;
  currentProfile(): string | undefined;
  saveProfile(name: string, profile: Profile): void;
  /** Removes a profile (and clears the current profile when it was that one). */
  removeProfile(name: string): boolean;
  useProfile(name: string | undefined): void;
  cache: CacheStore;
}

export const DEFAULT_PROFILE = 'default';

/** What a profile name may look like: no dots or slashes, so it is safe as an object key. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Where the config lives: PROXYCTL_CONFIG_DIR, else undefined (conf picks the OS config dir). */
export function configDirFromEnv(env: Env): string | undefined {
  const d = env.PROXYCTL_CONFIG_DIR;
  return d !== undefined && d !== '' ? d : undefined;
}

/** The dir holds API keys: create it 0700, and tighten it if we find it open to others. */
function ensurePrivateDir(dir: string): void {
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

export async function openConfigStore(env: Env, warn: (message: string) => void, configName = 'config'): Promise<ConfigStore> {
  const { default: Conf } = await import('conf');
  const cwd = configDirFromEnv(env);
  if (cwd) ensurePrivateDir(cwd);
  let conf: InstanceType<typeof Conf<StoreShape>>;
  try {
    conf = new Conf<StoreShape>({
      projectName: 'proxyctl',
      // ~/.config/proxyctl rather than conf's default ~/.config/proxyctl-nodejs.
      projectSuffix: '',
      configName,
      ...(cwd ? { cwd } : {}),
      configFileMode: 0o600,
      // Profile names and base URLs (cache keys) contain dots; they are keys, not paths.
      accessPropertiesByDotNotation: false,
      // Never silently throw away someone's saved keys because of one bad edit.
      clearInvalidConfig: false,
    });
  } catch (err) {
    const where = cwd ? `${cwd}/${configName}.json` : `the ${configName}.json of proxyctl`;
    throw new UsageError(`cannot read the config file ${where}: ${(err as Error).message}`, {
      hint: 'fix the file, or move it away and run proxyctl login again',
    });
  }
  if (!cwd) {
    // conf chose the OS config dir; make it private too.
    const { dirname } = await import('node:path');
    ensurePrivateDir(dirname(conf.path));
  }
  const w = permissionWarning(conf.path);
  if (w) warn(w);

  // conf re-reads and re-parses the file on every get; a command reads it once (and again only
  // after it has written), however many settings it looks at.
  let snapshot: StoreShape | undefined;
  const read = (): StoreShape => (snapshot ??= conf.store);
  const write = (change: () => void): void => {
    change();
    snapshot = undefined;
  };

  const profiles = (): Record<string, Profile> => ({ ...(read().profiles ?? {}) });
  return {
    path: conf.path,
    profiles,
    profile: (name) => profiles()[name],
    currentProfile: () => read().currentProfile,
    saveProfile(name, profile) {
      write(() => conf.set('profiles', { ...profiles(), [name]: profile }));
    },
    removeProfile(name) {
      const all = profiles();
      if (!(name in all)) return false;
      delete all[name];
      write(() => {
        conf.set('profiles', all);
        if (conf.get('currentProfile') === name) conf.delete('currentProfile');
      });
      return true;
    },
    useProfile(name) {
      write(() => (name === undefined ? conf.delete('currentProfile') : conf.set('currentProfile', name)));
    },
    cache: {
      get: <T>(key: string) => {
        const c = read().cache as Record<string, unknown> | undefined;
        return c?.[key] as T | undefined;
      },
      set(key, value) {
        const c = (read().cache as Record<string, unknown> | undefined) ?? {};
        write(() => conf.set('cache', { ...pruneCache(c, Date.now()), [key]: value }));
      },
    },
  };
}

/** "sk_live_abcdef123456" → "sk_l…3456": enough to tell keys apart, never enough to use one. */
export function maskKey(key: string | undefined): string {
  if (!key) return '-';
  if (key.length <= 8) return `…${key.slice(-2)}`;
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

/** Cache entries outlive every use after two days (discovery TTL 1 h, idempotency keys 24 h). */
const CACHE_MAX_AGE_MS = 48 * 3600 * 1000;

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
