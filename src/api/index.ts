// The API layer's front door: the client and its types, and the base-URL rules. It imports nothing
// above it; the context (src/context/client.ts) builds a client from credentials and globals.
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../net/loopback.js';

export { ApiClient } from './client.js';
export type { ApiResponse, AsyncCache, Page, Pagination, Query, RequestOptions, RetryPolicy } from './client.js';

export { isLoopbackHost } from '../net/loopback.js';

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
