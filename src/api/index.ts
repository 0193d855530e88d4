// Builds the ApiClient for a command from its context: credentials, timeouts, debug trace.
import type { Context } from '../context.js';
import { AuthMissingError, UsageError } from '../errors.js';
import { resolveCredentials } from '../config/credentials.js';
import { userAgent } from '../version.js';
import { ApiClient } from './client.js';

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
  if (!creds.baseUrl) {
    throw new AuthMissingError('no API base URL configured', 'run proxyctl login or set PROXYCTL_BASE_URL and PROXYCTL_API_KEY');
  }
  const url = checkBaseUrl(creds.baseUrl, insecure);
  if (!creds.apiKey) throw new AuthMissingError();
  return new ApiClient({
    baseUrl: url.toString().replace(/\/+$/, ''),
    apiKey: creds.apiKey,
    timeoutMs: ctx.globals.timeoutMs,
    env: ctx.io.env,
    signal: ctx.signal,
    userAgent: userAgent(),
    trace: ctx.globals.debug ? (line) => ctx.io.stderr.write(`[debug] ${line}\n`) : undefined,
  });
}
