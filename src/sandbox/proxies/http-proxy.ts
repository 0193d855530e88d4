// The HTTP proxy side of sandbox units, on node:http: CONNECT tunnels and absolute-form requests.
// `http` units need Basic Proxy-Authorization (407 with Proxy-Authenticate otherwise); `http_noauth`
// units admit only source addresses on their allowedIps (403 otherwise). One http.Server serves
// every unit: each listener hands its accepted sockets over with the unit they belong to, and the
// unit's credentials and list are read per request, so a PATCH applies at once.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Credentials } from '../validate.js';
import { dial, isLoopbackDestination, route, type Dialer } from './dial.js';

export interface HttpUnit {
  protocol(): string;
  credentials(): Credentials | null;
  allowedIps(): string[];
  dialer: Dialer;
}

const REALM = 'Basic realm="proxyctl sandbox"';
const HOP_BY_HOP = ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

/** The client's IPv4 address as the unit's allowedIps spells it (no ::ffff: prefix). */
export const sourceAddress = (s: { remoteAddress?: string | undefined }) => (s.remoteAddress ?? '').replace(/^::ffff:/, '');

function admit(u: HttpUnit, req: IncomingMessage): { status: number; message: string } | undefined {
  if (u.protocol() === 'http_noauth') {
    const src = sourceAddress(req.socket);
    return u.allowedIps().includes(src) ? undefined : { status: 403, message: `source address ${src} is not on the unit's allowedIps` };
  }
  const c = u.credentials();
  const m = /^Basic\s+(\S+)$/i.exec(req.headers['proxy-authorization'] ?? '');
  const given = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : undefined;
  return c && given === `${c.username}:${c.password}` ? undefined : { status: 407, message: 'proxy authentication required' };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    ...(status === 407 ? { 'proxy-authenticate': REALM } : {}),
  });
  res.end(`${message}\n`);
}

function refuseTunnel(sock: Socket, status: number, message: string): void {
  const reason = { 400: 'Bad Request', 403: 'Forbidden', 407: 'Proxy Authentication Required', 502: 'Bad Gateway' }[status] ?? 'Error';
  const extra = status === 407 ? `Proxy-Authenticate: ${REALM}\r\n` : '';
  const body = `${message}\n`;
  sock.end(
    `HTTP/1.1 ${status} ${reason}\r\n${extra}Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export class HttpProxy {
  private readonly units = new WeakMap<Socket, HttpUnit>();
  readonly server: Server;

  constructor() {
    this.server = createServer({ keepAliveTimeout: 5000 }, (req, res) => this.forward(req, res));
    this.server.on('connect', (req: IncomingMessage, sock: Socket, head: Buffer) => void this.tunnel(req, sock, head));
    this.server.on('clientError', (_e, sock: Socket) => sock.destroy());
  }

  /** Serves an accepted socket as the given unit's HTTP proxy. */
  serve(sock: Socket, u: HttpUnit): void {
    this.units.set(sock, u);
    this.server.emit('connection', sock);
  }

  private async tunnel(req: IncomingMessage, sock: Socket, head: Buffer): Promise<void> {
    sock.on('error', () => sock.destroy());
    const u = this.units.get(sock);
    if (!u) return void sock.destroy();
    const no = admit(u, req);
    if (no) return refuseTunnel(sock, no.status, no.message);
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!m) return refuseTunnel(sock, 400, 'CONNECT needs host:port');
    const out = await dial(u.dialer, m[1]!, Number(m[2]));
    if (typeof out === 'string')
      return refuseTunnel(
        sock,
        out === 'not_allowed' ? 403 : 502,
        out === 'not_allowed' ? 'the sandbox proxies to loopback only' : `cannot reach ${req.url}`,
      );
    sock.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) out.write(head);
    sock.pipe(out).pipe(sock);
    out.on('close', () => sock.destroy());
    sock.on('close', () => out.destroy());
  }

  /** Where an absolute-form request goes, or why it is refused. */
  private target(req: IncomingMessage, u: HttpUnit): URL | { status: number; message: string } {
    const no = admit(u, req);
    if (no) return no;
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return { status: 400, message: 'a proxy request needs an absolute http:// URL' };
    }
    if (url.protocol !== 'http:')
      return { status: 400, message: 'only http:// URLs are proxied as requests; use CONNECT for anything else' };
    if (!isLoopbackDestination(url.hostname)) return { status: 403, message: 'the sandbox proxies to loopback only' };
    return url;
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const u = this.units.get(req.socket);
    if (!u) {
      req.socket.destroy();
      return;
    }
    const url = this.target(req, u);
    if (!(url instanceof URL)) {
      req.resume();
      refuse(res, url.status, url.message);
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const up = request({
      ...route(u.dialer, url.hostname),
      port: url.port || 80,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
    });
    up.on('response', (r) => {
      const out = { ...r.headers };
      for (const h of HOP_BY_HOP) delete out[h];
      res.writeHead(r.statusCode ?? 502, out);
      r.pipe(res);
    });
    // A client that goes away mid-answer takes the upstream request with it.
    res.on('close', () => up.destroy());
    up.on('error', () => {
      if (!res.headersSent) refuse(res, 502, `cannot reach ${url.host}`);
      else res.destroy();
    });
    req.pipe(up);
  }

  close(): void {
    this.server.closeAllConnections();
  }
}
