// Where proxyctl keeps its files: in PROXYCTL_CONFIG_DIR when set (tests, portable setups) the config
// file, and the caches in its cache/; else the OS dirs (~/.config/proxyctl and ~/.cache/proxyctl, and
// the macOS/Windows equivalents, as conf placed the config before). Used by the config store, the
// values cache.
import { join } from 'node:path';
import envPaths from 'env-paths';
import type { Env } from '../io.js';

/** PROXYCTL_CONFIG_DIR, else undefined (the OS dirs). */
function configDirFromEnv(env: Env): string | undefined {
  const d = env.PROXYCTL_CONFIG_DIR;
  return d !== undefined && d !== '' ? d : undefined;
}

/** Where the config file lives. */
export function configDir(env: Env): string {
  return configDirFromEnv(env) ?? envPaths('proxyctl', { suffix: '' }).config;
}

/**
 * Where records live that must outlast a cache clean-up (purchase records for resuming a batch):
 * PROXYCTL_CONFIG_DIR/data when set, else the OS data dir (~/.local/share/proxyctl, …).
 */
export function dataDir(env: Env): string {
  const fromEnv = configDirFromEnv(env);
  return fromEnv ? join(fromEnv, 'data') : envPaths('proxyctl', { suffix: '' }).data;
}

/** This machine's ledger: the journals, holds and balance readings of each account (never config.json). */
export function ledgerDir(env: Env): string {
  return join(dataDir(env), 'ledger');
}

/** Where the caches live (values for completion, discovered operations). */
export function cacheDir(env: Env): string {
  const fromEnv = configDirFromEnv(env);
  return fromEnv ? join(fromEnv, 'cache') : envPaths('proxyctl', { suffix: '' }).cache;
}
