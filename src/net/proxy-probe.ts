// One request to a target through one proxy, for `units check`: SOCKS5 through the `socks` client
// on a TCP connection opened here (so a refusal is told apart from a SOCKS answer), HTTP proxies
// through undici's ProxyAgent (CONNECT, so the proxy's own refusal, 407 or 403, is never mistaken
// for the target's status). Every way it can fail becomes a ProbeError with a stable code. An https
// target's certificate is checked as a browser would (against Node's CAs, plus --ca-cert's), unless
// the caller says not to (--insecure).
import { connect as tcpConnect, type Socket } from 'node:net';
import * as tls from 'node:tls';
import { SocksClient } from 'socks';
import { Client, ProxyAgent, TunnelPool, type Dispatcher } from './undici-parts.js';
import { errCode, seconds } from './transport.js';
import { serverName, tlsProblem } from './tls.js';

export type ProxyProtocol = 'socks5' | 'http' | 'http_noauth';

/** The stable failure codes of `units check` (README "Checking units"). */
export type ProbeCode =
  | 'auth_failed'
  | 'ip_not_allowed'
  | 'refused'
  | 'timeout'
  | 'bad_response'
  | 'target_unreachable'
  | 'proxy_error'
  | 'target_error'
  | 'tls_error';

export interface ProxyEndpoint {
  protocol: ProxyProtocol;
  host: string;
  port: number;
  username?: string | undefined;
  password?: string | undefined;
}

export interface ProbeAnswer {
  status: number;
  /** From the start of the connection to the target's response head. */
  firstByteMs: number;
  /** The body, up to MAX_BODY bytes. */
  body: string;
  contentType: string | undefined;
}

/**
 * How a SOCKS5 greeting went wrong in a way an HTTP proxy would also cause: it answered, but not
 * in SOCKS5 (`answered`), or hung up without a byte (`closed`, as an HTTP proxy does with a
 * request line it cannot read). Either is worth asking again as HTTP when the protocol is unknown.
 */
export type NotSocks = 'answered' | 'closed';

export class ProbeError extends Error {
  readonly notSocks: NotSocks | undefined;
  constructor(
    readonly code: ProbeCode,
    message: string,
    opts: { notSocks?: NotSocks; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.notSocks = opts.notSocks;
  }
}

const MAX_BODY = 64 * 1024;

export interface ProbeOptions {
  timeoutMs: number;
  /** Aborted on Ctrl-C: the probe rejects with this signal's reason. */
  signal: AbortSignal;
  headers: Record<string, string>;
  /** How an https target's certificate is checked (default: against Node's CAs). */
  targetTls?: TargetTls | undefined;
}

export interface TargetTls {
  /** False: any certificate is accepted (--insecure). */
  verify: boolean;
  /** CAs trusted besides Node's own, as PEM (--ca-cert). */
  extraCas?: readonly string[] | undefined;
}

/** The tls.connect options for a target: its SNI name (none for an address) and whom to trust. */
function targetTlsOptions(target: URL, t: TargetTls | undefined): tls.ConnectionOptions {
  const name = serverName(target.hostname);
  return {
    // The certificate is checked against `host` when no server name is sent, so an address is checked too.
    host: target.hostname.replace(/^\[|\]$/g, ''),
    ...(name === undefined ? {} : { servername: name }),
    rejectUnauthorized: t?.verify ?? true,
    ...(t?.extraCas?.length ? { secureContext: trusting(t) } : {}),
  };
}

/** One context per run: building one parses every CA, which a thousand checks should not each redo. */
const contexts = new WeakMap<TargetTls, tls.SecureContext>();

/**
 * Node's default CAs plus the caller's: `ca` alone would replace them. A Node without
 * tls.getCACertificates (20) gives only its bundled roots here, so the caller passes
 * NODE_EXTRA_CA_CERTS's certificates among its own (trustedExtras in src/commands/units/check.ts).
 */
function trusting(t: TargetTls): tls.SecureContext {
  let context = contexts.get(t);
  if (context === undefined) {
    const withDefaults = tls as typeof tls & { getCACertificates?: (type: 'default') => string[] };
    const defaults = withDefaults.getCACertificates?.('default') ?? tls.rootCertificates;
    context = tls.createSecureContext({ ca: [...defaults, ...(t.extraCas ?? [])] });
    contexts.set(t, context);
  }
  return context;
}

/** GET `target` through `proxy`; rejects with a ProbeError, or with `opts.signal.reason` once aborted. */
export async function probe(proxy: ProxyEndpoint, target: URL, opts: ProbeOptions): Promise<ProbeAnswer> {
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]);
  const started = performance.now();
  let dispatcher: Dispatcher | undefined;
  try {
    const tlsOptions = targetTlsOptions(target, opts.targetTls);
    dispatcher =
      proxy.protocol === 'socks5'
        ? await socksDispatcher(proxy, target, signal, tlsOptions)
        : httpProxyAgent(proxy, opts.timeoutMs, tlsOptions);
    const res = await dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headers: { host: target.host, ...opts.headers },
      signal,
    });
    const firstByteMs = Math.round(performance.now() - started);
    const body = await readCapped(res.body);
    const type = res.headers['content-type'];
    return { status: res.statusCode, firstByteMs, body, contentType: Array.isArray(type) ? type[0] : type };
  } catch (err) {
    if (opts.signal.aborted) throw opts.signal.reason;
    if (signal.aborted) throw timedOut(opts.timeoutMs);
    if (err instanceof ProbeError) throw err;
    const tlsWords = target.protocol === 'https:' ? tlsProblem(errCode(err), (err as Error)?.message ?? String(err)) : undefined;
    if (tlsWords !== undefined) throw new ProbeError('tls_error', `no secure connection to the target: ${tlsWords}`, { cause: err });
    // Through SOCKS5 the tunnel was open before the request; through an HTTP proxy, once CONNECT got 200.
    const tunnelled = dispatcher instanceof TunnelAgent ? dispatcher.connectStatus : dispatcher ? 200 : undefined;
    throw fromHttpError(err, tunnelled, proxy.protocol === 'http_noauth');
  } finally {
    void dispatcher?.destroy().catch(() => undefined);
  }
}

function timedOut(ms: number): ProbeError {
  return new ProbeError('timeout', `no answer within ${seconds(ms)}`);
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_BODY) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8');
}

const REFUSED = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

// ---- SOCKS5 -------------------------------------------------------------------------------

/** A TCP connection to the proxy, then the SOCKS5 handshake; the client gets the tunnel. */
async function socksDispatcher(
  proxy: ProxyEndpoint,
  target: URL,
  signal: AbortSignal,
  tlsOptions: tls.ConnectionOptions,
): Promise<Dispatcher> {
  const tcp = await openTcp(proxy.host, proxy.port, signal);
  // The socks client keeps only an error's message; the code says whether the proxy hung up.
  let tcpError: string | undefined;
  tcp.on('error', (err) => {
    tcpError ??= errCode(err);
  });
  let tunnel: Socket;
  try {
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const { socket } = await abortable(
      SocksClient.createConnection({
        proxy: {
          host: proxy.host,
          port: proxy.port,
          type: 5,
          ...(proxy.username !== undefined ? { userId: proxy.username, password: proxy.password ?? '' } : {}),
        },
        command: 'connect',
        destination: { host: target.hostname.replace(/^\[|\]$/g, ''), port },
        existing_socket: tcp,
        // The deadline is ours (signal); the socks client's own is only a backstop.
        timeout: 3_600_000,
      }),
      signal,
      () => tcp.destroy(),
    );
    tunnel = socket;
  } catch (err) {
    tcp.destroy();
    if (signal.aborted) throw err;
    throw fromSocksError(err, tcpError);
  }
  const socket = target.protocol === 'https:' ? tls.connect({ ...tlsOptions, socket: tunnel }) : tunnel;
  let handedOut = false;
  return new Client(target.origin, {
    // One request on the tunnel already open; a second connect would be a retry on a dead socket.
    connect: (_opts: unknown, cb: (err: Error | null, socket: Socket | null) => void) => {
      // Answered on a later tick: undici's client does not expect its connector to call back at once.
      const answer = handedOut ? () => cb(new Error('the tunnel through the proxy was closed'), null) : () => cb(null, socket);
      handedOut = true;
      queueMicrotask(answer);
    },
    pipelining: 0,
  } as unknown as ConstructorParameters<typeof Client>[1]);
}

function openTcp(host: string, port: number, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = tcpConnect({ host, port });
    const onAbort = () => {
      sock.destroy();
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    sock.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(sock);
    });
    sock.once('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(refusedOrBad(err));
    });
  });
}

function refusedOrBad(err: unknown): ProbeError {
  const code = errCode(err);
  return new ProbeError(REFUSED.has(code ?? '') ? 'refused' : 'bad_response', `connection failed: ${(err as Error).message}`, {
    cause: err,
  });
}

function abortable<T>(p: Promise<T>, signal: AbortSignal, cleanup: () => void): Promise<T> {
  if (signal.aborted) {
    cleanup();
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      cleanup();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The socks client's messages (its ERRORS table) to our codes. */
function fromSocksError(err: unknown, tcpError: string | undefined): ProbeError {
  const msg = err instanceof Error ? err.message : String(err);
  const make = (code: ProbeCode, text: string, notSocks?: NotSocks) =>
    new ProbeError(code, text, { ...(notSocks ? { notSocks } : {}), cause: err });
  if (msg.startsWith('Socks5 Authentication failed')) return make('auth_failed', 'the proxy refused the username and password');
  if (msg.includes('no accepted authentication type')) return make('auth_failed', 'the proxy accepts none of the offered ways to log in');
  if (msg.startsWith('Socket closed')) return make('refused', 'the proxy closed the connection during the SOCKS5 handshake', 'closed');
  if (msg.startsWith('Received invalid Socks5 initial handshake'))
    return make('bad_response', 'the proxy does not speak SOCKS5', 'answered');
  if (msg.startsWith('Socks5 proxy rejected connection')) {
    const why = msg.split(' - ')[1] ?? '';
    // "Not allowed by the ruleset" names no cause: the source, or (the sandbox's case) the destination.
    if (why === 'NotAllowed') return make('proxy_error', 'the proxy does not allow this connection (SOCKS5 reply "not allowed")');
    if (['NetworkUnreachable', 'HostUnreachable', 'ConnectionRefused', 'TTLExpired'].includes(why))
      return make('target_unreachable', `the proxy could not reach the target (${why})`);
    return make('proxy_error', `the proxy refused the request (${why || 'SOCKS5 failure'})`);
  }
  if (REFUSED.has(tcpError ?? errCode(err) ?? '')) return make('refused', `the proxy dropped the connection: ${msg}`, 'closed');
  return make('bad_response', `the SOCKS5 handshake failed: ${msg}`);
}

// ---- HTTP proxies -------------------------------------------------------------------------

/**
 * The pool ProxyAgent talks to the proxy through: it remembers the CONNECT answer's status (403 and
 * 407 are the proxy refusing), and re-codes a failed CONNECT, which undici would otherwise retry
 * without end when the proxy closes the connection.
 */
class CapturingPool extends TunnelPool {
  status: number | undefined;
  protected override tunnel(opening: Promise<Dispatcher.ConnectData>): Promise<Dispatcher.ConnectData> {
    return opening.then(
      (data) => {
        this.status = data.statusCode;
        return data;
      },
      (err: unknown) => {
        // UND_ERR_SOCKET is what undici retries; every other code is kept for fromHttpError.
        const code = errCode(err);
        const kept = code === undefined || code === 'UND_ERR_SOCKET' ? 'PROXYCTL_CONNECT' : code;
        throw Object.assign(new Error(`CONNECT failed: ${(err as Error)?.message}`), { code: kept, cause: err });
      },
    );
  }
}

class TunnelAgent extends ProxyAgent {
  pool: CapturingPool | undefined;
  get connectStatus(): number | undefined {
    return this.pool?.status;
  }
}

function httpProxyAgent(proxy: ProxyEndpoint, timeoutMs: number, tlsOptions: tls.ConnectionOptions): TunnelAgent {
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  const auth =
    proxy.protocol === 'http' && proxy.username !== undefined
      ? { token: `Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}` }
      : {};
  let pool: CapturingPool | undefined;
  const agent = new TunnelAgent({
    uri: `http://${host}:${proxy.port}`,
    ...auth,
    connect: { timeout: timeoutMs },
    // To the target through the tunnel; undici sends no server name for an address, and checks the certificate against it.
    requestTls: {
      timeout: timeoutMs,
      rejectUnauthorized: tlsOptions.rejectUnauthorized,
      ...(tlsOptions.secureContext ? { secureContext: tlsOptions.secureContext } : {}),
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // Called once, inside the constructor: the pool to the proxy itself.
    clientFactory: (origin: URL, o: object) => {
      pool = new CapturingPool(origin, { ...o, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      return pool;
    },
  });
  agent.pool = pool;
  return agent;
}

function fromHttpError(err: unknown, connectStatus: number | undefined, noAuth: boolean): ProbeError {
  const msg = err instanceof Error ? err.message : String(err);
  const make = (code: ProbeCode, text: string) => new ProbeError(code, text, { cause: err });
  const said = /Proxy response \((\d{3})\)/.exec(msg);
  const status = connectStatus ?? (said ? Number(said[1]) : undefined);
  if (status !== undefined && status !== 200) {
    if (status === 407) return make('auth_failed', 'the proxy refused the username and password (HTTP 407)');
    // Without credentials the source address is all a proxy judges; with them a 403 is about the request.
    if (status === 403 && noAuth) return make('ip_not_allowed', 'the proxy refused this source address (HTTP 403)');
    if (status === 502 || status === 503 || status === 504)
      return make('target_unreachable', `the proxy could not reach the target (HTTP ${status})`);
    return make('proxy_error', `the proxy refused the tunnel (HTTP ${status})`);
  }
  const code = errCode(err);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return make('timeout', 'no answer in time');
  if (REFUSED.has(code ?? '') && connectStatus === undefined) return make('refused', `connection failed: ${msg}`);
  if (code === 'HPE_INVALID_CONSTANT' || code?.startsWith('HPE_') || (err as Error)?.name === 'HTTPParserError')
    return make('bad_response', connectStatus === undefined ? 'the proxy does not speak HTTP' : 'the target did not answer in HTTP');
  if (connectStatus === undefined && code === 'PROXYCTL_CONNECT')
    return make('refused', 'the proxy closed the connection before answering CONNECT');
  return make('bad_response', msg);
}
