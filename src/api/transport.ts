// The only module that imports undici. One dispatcher per process: EnvHttpProxyAgent, so
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY behave as users behind a corporate proxy expect.
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { Env } from '../io.js';
import { InterruptedError, NetworkError } from '../errors.js';

export interface TransportOptions {
  env: Env;
  timeoutMs: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
}

let shared: { key: string; dispatcher: Dispatcher } | undefined;

function dispatcherFor(opts: TransportOptions): Dispatcher {
  const key = `${opts.timeoutMs}`;
  if (shared?.key === key) return shared.dispatcher;
  const env = opts.env;
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: env.http_proxy ?? env.HTTP_PROXY,
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY,
    noProxy: env.no_proxy ?? env.NO_PROXY,
    connect: { timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    keepAliveTimeout: 4_000,
  });
  shared = { key, dispatcher };
  return dispatcher;
}

/** Error codes that prove the request never reached the server, so any request may be retried. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

export function classifyNetworkError(err: unknown, url: string, timeoutMs: number): NetworkError {
  const code = errCode(err) ?? 'network_error';
  const host = safeHost(url);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new NetworkError(`could not connect to ${host} within ${timeoutMs / 1000}s`, { code: 'connect_timeout', notSent: true, cause: err });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new NetworkError(`${host} did not answer within ${timeoutMs / 1000}s (--timeout)`, { code: 'timeout', cause: err });
  }
  if (code === 'ECONNREFUSED') return new NetworkError(`connection refused by ${host}`, { code: 'connection_refused', notSent: true, cause: err });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new NetworkError(`cannot resolve ${host}`, { code: 'dns_error', notSent: true, cause: err });
  if (NOT_SENT.has(code)) return new NetworkError(`cannot reach ${host} (${code})`, { code: 'unreachable', notSent: true, cause: err });
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return new NetworkError(`the connection to ${host} was closed before the response arrived`, { code: 'connection_reset', cause: err });
  }
  const msg = err instanceof Error ? err.message : String(err);
  return new NetworkError(`request to ${host} failed: ${msg}`, { code: 'network_error', cause: err });
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function isAbort(err: unknown): boolean {
  const e = err as { name?: string; code?: string };
  return e?.name === 'AbortError' || e?.code === 'UND_ERR_ABORTED' || e?.code === 'ABORT_ERR';
}

export async function send(req: RawRequest, opts: TransportOptions): Promise<RawResponse> {
  if (req.signal?.aborted) throw new InterruptedError();
  try {
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      dispatcher: dispatcherFor(opts),
    });
    const body = await res.body.text();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    return { status: res.statusCode, headers, body };
  } catch (err) {
    if (isAbort(err) || req.signal?.aborted) throw new InterruptedError();
    throw classifyNetworkError(err, req.url, opts.timeoutMs);
  }
}
