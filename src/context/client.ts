// An ApiClient for a known base URL and key, wired to the context: timeouts, Ctrl-C, debug trace,
// and a discovery cache in the config dir.
import type { Context } from './types.js';
import { ApiClient, type AsyncCache } from '../api/index.js';
import type { CacheStore } from '../config/store.js';
import { userAgent } from '../version.js';
import { escapeControl } from '../output/escape.js';

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
    cache: discoveryCache(ctx),
    activity: ctx.activity,
  });
}

/** Discovery results persist in the config dir; a config dir we cannot open just means no cache. */
function discoveryCache(ctx: Context): AsyncCache {
  let store: Promise<CacheStore | undefined> | undefined;
  const open = () =>
    (store ??= ctx.config().then(
      (s) => s.cache,
      () => undefined,
    ));
  return {
    async get<T>(key: string) {
      return (await open())?.get<T>(key);
    },
    async set(key: string, value: unknown) {
      try {
        await (await open())?.set(key, value);
      } catch {
        // A read-only config dir must not break a command; discovery runs again next time.
      }
    },
  };
}
