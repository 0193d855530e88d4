// Builds the ApiClient for a command from its context: credentials, timeouts, debug trace.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { resolveCredentials } from '../config/credentials.js';
import type { CacheStore } from '../config/store.js';
import { userAgent } from '../version.js';
import { escapeControl } from '../output/escape.js';
import { ApiClient, type AsyncCache } from './client.js';

export { ApiClient } from './client.js';
export type { ApiResponse, Page, Pagination, Query, RequestOptions, RetryPolicy } from './client.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The key goes only to https, or to http on loopback; anything else needs --insecure. */
export function checkBaseUrl(raw: string, insecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid base URL "${raw}" (expected e.g. https://api.example.com)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`base URL must be http(s), got "${url.protocol}"`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new UsageError(`refusing to send the API key over plain http to ${url.host}`, {
      hint: 'use an https URL, or pass --insecure if you really mean it',
    });
  }
  if (url.pathname.replace(/\/+$/, '').endsWith('/api/reseller/v1')) {
    throw new UsageError('the base URL must not include /api/reseller/v1', { hint: `use ${url.origin}` });
  }
  return url;
}

export async function createApiClient(ctx: Context, insecure = false): Promise<ApiClient> {
  const creds = await resolveCredentials(ctx);
  if (!creds.baseUrl || !creds.apiKey) {
    // Validate a base URL that is there before offering to log in with it.
    if (creds.baseUrl) checkBaseUrl(creds.baseUrl, insecure);
    const { offerLogin } = await import('../config/login.js');
    return offerLogin(ctx, creds.profile, creds.baseUrl, ctx.globals.profile !== undefined && !creds.profileExists);
  }
  return buildApiClient(ctx, checkBaseUrl(creds.baseUrl, insecure), creds.apiKey);
}

/** A client for a known base URL and key (also used by login to verify a key before saving it). */
export async function buildApiClient(ctx: Context, url: URL, apiKey: string): Promise<ApiClient> {
  const client = new ApiClient({
    baseUrl: url.toString().replace(/\/+$/, ''),
    apiKey,
    timeoutMs: ctx.globals.timeoutMs,
    env: ctx.io.env,
    signal: ctx.signal,
    userAgent: userAgent(),
    trace: ctx.globals.debug ? (line) => ctx.io.stderr.write(`[debug] ${escapeControl(line)}\n`) : undefined,
    cache: discoveryCache(ctx),
  });
  return client;
}

/** Discovery results persist in the config dir; a config dir we cannot open just means no cache. */
function discoveryCache(ctx: Context): AsyncCache {
  let store: Promise<CacheStore | undefined> | undefined;
  const open = () => (store ??= ctx.config().then((s) => s.cache, () => undefined));
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
