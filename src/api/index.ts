// The API layer's front door: the client and its types, and the base-URL rules. It imports nothing
// above it; the context (src/context/client.ts) builds a client from credentials and globals.
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../net/loopback.js';

export { ApiClient } from './client.js';
export type { ApiResponse, AsyncCache, Page, Pagination, Query, RequestOptions, RetryPolicy } from './client.js';

export { isLoopbackHost } from '../net/loopback.js';

/**
 * The key goes only to https, or to http on loopback; anything else needs --insecure. A URL given
 * with the API's path (`https://api.example.com/api/reseller/v1`, as the API's docs show requests)
 * is the base URL before it: the path is trimmed (`wasTrimmed` says so), never refused.
 */
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
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PATH)) url.pathname = path.slice(0, -API_PATH.length) || '/';
  return url;
}

const API_PATH = '/api/reseller/v1';

/** Whether `raw` named the API's path, which checkBaseUrl trims off (for a command to say so). */
export function wasTrimmed(raw: string): boolean {
  try {
    return new URL(raw).pathname.replace(/\/+$/, '').endsWith(API_PATH);
  } catch {
    return false;
  }
}
