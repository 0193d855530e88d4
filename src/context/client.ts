// An ApiClient for a known base URL and key, wired to the context: timeouts, Ctrl-C, debug trace,
// what it waits for, discovered operations in the cache dir and purchase records in the data dir.
import type { Context } from './types.js';
import { ApiClient, type AsyncCache } from '../api/index.js';
import type { CacheStore } from '../config/store.js';
import { cacheDir, dataDir } from '../config/dirs.js';
import { userAgent } from '../version.js';
import { escapeControl } from '../output/escape.js';
import { sightings } from './sightings.js';
import { sharedStoreOf } from './shared-store.js';

/** A client for a known base URL and key (also used by login to verify a key before saving it). */
export function buildApiClient(ctx: Context, url: URL, apiKey: string): ApiClient {
  return new ApiClient({
    baseUrl: url.toString().replace(/\/+$/, ''),
    apiKey,
    timeoutMs: ctx.globals.timeoutMs,
    env: ctx.io.env,
    signal: ctx.signal,
    userAgent: userAgent(),
    trace: ctx.globals.debug ? (line) => ctx.io.stderr.write(`[debug] ${escapeControl(line)}\n`) : undefined,
    cache: fileStore(ctx, 'the discovery cache', false, async (what) =>
      (await import('../config/store.js')).openKeyValueFile(cacheDir(ctx.io.env), 'discovery.json', (msg) => ctx.warn(msg), what),
    ),
    // Appended lines (purchases.jsonl); a purchases.json of an earlier version is read beneath them.
    // With a shared ledger, in its database too, so a batch resumes on any machine of the team.
    records: teamRecords(
      ctx,
      fileStore(ctx, 'the purchase records', true, async (what) =>
        (await import('../config/records.js')).openRecordFile(dataDir(ctx.io.env), 'purchases.jsonl', 'purchases.json', what),
      ),
    ),
    activity: ctx.activity,
    observe: sightings(ctx),
  });
}

/** The purchase records: this machine's, or (a ledger URL set) the shared store's over them. */
function teamRecords(ctx: Context, local: AsyncCache): AsyncCache {
  let chosen: Promise<AsyncCache> | undefined;
  let warned = false;
  const pick = () =>
    (chosen ??= sharedStoreOf(ctx).then(
      (shared) => (shared ? shared.records(local) : local),
      () => local,
    ));
  return {
    get: async <T>(key: string) => {
      try {
        return await (await pick()).get<T>(key);
      } catch {
        return undefined;
      }
    },
    set: async (key, value) => {
      try {
        await (await pick()).set(key, value);
      } catch (err) {
        if (!warned) ctx.warn(`the purchase record is kept on this machine only: ${(err as Error).message}`);
        warned = true;
      }
    },
  };
}

/**
 * A key/value file opened on first use. A cache we cannot open or write just means no cache
 * (discovery runs again). A purchase record that cannot be written is said once: the purchase
 * stands, and a re-run still never buys twice (the server replays by key), but it may print less.
 */
function fileStore(ctx: Context, what: string, warnOnFailure: boolean, opener: (what: string) => Promise<CacheStore>): AsyncCache {
  let store: Promise<CacheStore | undefined> | undefined;
  let warned = false;
  const failed = (err: unknown) => {
    if (warnOnFailure && !warned) ctx.warn(`cannot keep ${what}: ${(err as Error).message}`);
    warned = true;
  };
  const open = () =>
    (store ??= opener(what).catch((err: unknown) => {
      failed(err);
      return undefined;
    }));
  return {
    async get<T>(key: string) {
      try {
        return (await open())?.get<T>(key);
      } catch {
        return undefined;
      }
    },
    async set(key: string, value: unknown) {
      try {
        await (await open())?.set(key, value);
      } catch (err) {
        failed(err);
      }
    },
  };
}
