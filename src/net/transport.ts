// The only module that uses undici (through ./undici-parts.ts). One dispatcher per process: EnvHttpProxyAgent, so
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY behave as users behind a corporate proxy expect.
import { EnvHttpProxyAgent, TunnelPool, type Dispatcher } from './undici-parts.js';
import type { Env } from '../io.js';
import { InterruptedError, NetworkError } from '../errors.js';
import { isPlainJsonText } from './plain.js';
import { tlsProblem } from './tls.js';
import { sandboxCommandFor } from './loopback.js';

export interface TransportOptions {
  env: Env;
  timeoutMs: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body is printable ASCII without a backslash (src/net/plain.ts): no string parsed from it needs escaping. */
  plain: boolean;
}

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
}

let shared: { key: string; dispatcher: Dispatcher } | undefined;

/** CONNECTs to the HTTPS proxy still waiting for an answer: a deadline that hits one is the proxy's. */
let tunnelsOpening = 0;

/** A failed CONNECT to the HTTPS proxy: the request never reached the API. */
class ProxyTunnelError extends Error {
  readonly code = 'PROXYCTL_PROXY_TUNNEL';
  constructor(cause: unknown) {
    super(`the proxy failed to open a tunnel: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * The pool undici's ProxyAgent uses to talk to the proxy itself. Two reasons it is ours:
 * - undici builds that pool without our timeouts (CONNECT waits 300 s for an answer);
 * - a proxy that closes the connection on CONNECT fails with UND_ERR_SOCKET, which undici
 *   treats as recoverable and retries in a tight loop forever; re-coding the error ends it.
 */
class ProxyPool extends TunnelPool {
  protected override tunnel(opening: Promise<Dispatcher.ConnectData>): Promise<Dispatcher.ConnectData> {
    tunnelsOpening += 1;
    return opening
      .catch((err: unknown) => {
        throw new ProxyTunnelError(err);
      })
      .finally(() => {
        tunnelsOpening -= 1;
      });
  }
}

function dispatcherFor(opts: TransportOptions): Dispatcher {
  const env = opts.env;
  const key = JSON.stringify([
    opts.timeoutMs,
    env.http_proxy,
    env.HTTP_PROXY,
    env.https_proxy,
    env.HTTPS_PROXY,
    env.no_proxy,
    env.NO_PROXY,
  ]);
  if (shared?.key === key) return shared.dispatcher;
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: env.http_proxy ?? env.HTTP_PROXY,
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY,
    noProxy: env.no_proxy ?? env.NO_PROXY,
    connect: { timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    keepAliveTimeout: 4_000,
    // The same limits for the hop to an HTTP(S)_PROXY as for the API itself.
    proxyTls: { timeout: opts.timeoutMs },
    clientFactory: (origin: URL, o: object) => new ProxyPool(origin, { ...o, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs }),
  });
  shared = { key, dispatcher };
  return dispatcher;
}

/** Error codes that prove the request never reached the server, so any request may be retried. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The error's own code, or its cause's (undici wraps the socket's error). */
export function errCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

/** Seconds for messages: "3s", "0.5s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

/** The whole-request deadline (--timeout) ran out: says how long we really waited. */
export function deadlineError(url: string, timeoutMs: number, elapsedMs: number, cause?: unknown): NetworkError {
  return new NetworkError(`no complete answer from ${safeHost(url)} within ${seconds(elapsedMs)} (--timeout ${seconds(timeoutMs)})`, {
    code: 'timeout',
    hint: 'the server is slow or not answering; raise --timeout, or try again later',
    cause,
  });
}

function proxyError(host: string, why: string, cause: unknown): NetworkError {
  return new NetworkError(`the proxy could not reach ${host} (${why})`, {
    code: 'proxy_error',
    notSent: true,
    hint: "check HTTPS_PROXY/HTTP_PROXY (and NO_PROXY), or the proxy's credentials",
    cause,
  });
}

export function classifyNetworkError(err: unknown, url: string, timeoutMs: number, elapsedMs = timeoutMs): NetworkError {
  const code = errCode(err) ?? 'network_error';
  const host = safeHost(url);
  const tls = tlsProblem(code, err instanceof Error ? err.message : String(err));
  if (tls) {
    const plain =
      /plain http/.test(tls) && url.startsWith('https:') ? ` (try ${url.replace(/^https:/, 'http:').replace(/(\/\/[^/]+).*$/, '$1')})` : '';
    return new NetworkError(`no secure connection to ${host}: ${tls}`, {
      code: 'tls_error',
      notSent: true,
      hint: `check the base URL${plain}; the API key was not sent`,
      cause: err,
    });
  }
  if (code === 'PROXYCTL_PROXY_TUNNEL' || /^Proxy response \(\d+\)/.test((err as Error)?.message ?? '')) {
    // undici reports a non-200 answer to CONNECT as an "aborted" request; it is a proxy problem.
    const status = /^Proxy response \((\d+)\)/.exec((err as Error)?.message ?? '')?.[1];
    const causeCode = errCode((err as Error)?.cause);
    const why = status
      ? `it answered HTTP ${status}`
      : causeCode === 'UND_ERR_HEADERS_TIMEOUT' || causeCode === 'UND_ERR_CONNECT_TIMEOUT'
        ? `no answer within ${seconds(timeoutMs)}`
        : (err as Error).message.replace(/^the proxy failed to open a tunnel: /, '');
    return proxyError(host, why, err);
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new NetworkError(`could not connect to ${host} within ${seconds(elapsedMs)} (--timeout ${seconds(timeoutMs)})`, {
      code: 'connect_timeout',
      notSent: true,
      cause: err,
    });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return deadlineError(url, timeoutMs, elapsedMs, err);
  if (code === 'ECONNREFUSED') {
    // Nothing listens on this machine at that port: most often the sandbox the profile points at is not running.
    const sandbox = sandboxCommandFor(url);
    return new NetworkError(`connection refused by ${host}`, {
      code: 'connection_refused',
      notSent: true,
      ...(sandbox ? { hint: `nothing listens there; for a local sandbox, start one: ${sandbox} (or check the base URL)` } : {}),
      cause: err,
    });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new NetworkError(`cannot resolve ${host}`, { code: 'dns_error', notSent: true, cause: err });
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

/** The body as text, as undici's body.text() decodes it (UTF-8, a leading BOM dropped). */
function bodyText(bytes: Buffer, plain: boolean): string {
  // Plain bytes are ASCII: latin1 reads them the same, without UTF-8's checks.
  if (plain) return bytes.toString('latin1');
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/**
 * One request, bounded as a whole by opts.timeoutMs: connect, headers and the last byte of the body
 * all within it (undici's own timeouts are per phase, so a trickling body could run on for ever).
 * Redirects are not followed (undici's dispatcher does not without an interceptor): the caller sees
 * the 3xx, and the API key never goes to the Location.
 */
export async function send(req: RawRequest, opts: TransportOptions): Promise<RawResponse> {
  if (req.signal?.aborted) throw new InterruptedError();
  // Date.now(), not performance.now(): the elapsed time only words an error message, and the first
  // use of `performance` loads perf_hooks and the Node modules it needs on every command.
  const started = Date.now();
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  let inTunnel = false;
  deadline.addEventListener('abort', () => (inTunnel = tunnelsOpening > 0), { once: true });
  try {
    // Spec §1: every request with a body says it is JSON, whoever built the headers.
    const hasType = Object.keys(req.headers).some((k) => k.toLowerCase() === 'content-type');
    const sent = req.body === undefined || hasType ? req.headers : { ...req.headers, 'content-type': 'application/json' };
    const url = new URL(req.url);
    const res = await dispatcherFor(opts).request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: req.method as Dispatcher.HttpMethod,
      headers: sent,
      body: req.body,
      signal: req.signal ? AbortSignal.any([req.signal, deadline]) : deadline,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const plain = isPlainJsonText(bytes);
    const body = bodyText(bytes, plain);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    return { status: res.statusCode, headers, body, plain };
  } catch (err) {
    // Only our own signal means Ctrl-C: undici also says "aborted" when a proxy refuses CONNECT.
    if (req.signal?.aborted) throw new InterruptedError();
    const elapsed = Math.max(0, Date.now() - started);
    if (deadline.aborted && inTunnel) throw proxyError(safeHost(req.url), `no answer within ${seconds(opts.timeoutMs)}`, err);
    if (deadline.aborted) throw deadlineError(req.url, opts.timeoutMs, elapsed, err);
    throw classifyNetworkError(err, req.url, opts.timeoutMs, elapsed);
  }
}
