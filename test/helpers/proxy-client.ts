// Clients that go through a sandbox unit's proxy to a target, the way a customer's tool would:
// the `socks` client for socks5 units, CONNECT and absolute-form requests for HTTP units. Each
// returns the target's HTTP answer (status and parsed JSON body) or the error that stopped it.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { SocksClient } from 'socks';
import { afterAll, beforeAll } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { startFastSandbox } from './sandbox.js';

export interface ProxyUnit {
  ip: string;
  port: number;
  credentials?: { username: string; password: string } | null;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any field of the echo
  body: any;
  /** Bytes the client's connection to the proxy carried, both ways (socks5 and CONNECT only). */
  bytes?: number;
}

function parse(raw: string): Answer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  const text = rest.join('\r\n\r\n');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** One HTTP/1.0 request over an open socket (the tunnel), read to the end. */
function overSocket(sock: Socket, target: URL, extraHeaders: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    sock.on('data', (d: Buffer) => chunks.push(d));
    sock.on('error', reject);
    sock.on('close', () => resolve({ ...parse(Buffer.concat(chunks).toString('utf8')), bytes: sock.bytesRead + sock.bytesWritten }));
    const hdrs = Object.entries({ host: target.host, ...extraHeaders })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    sock.write(`GET ${target.pathname}${target.search} HTTP/1.0\r\n${hdrs}\r\n`);
  });
}

/** GET through a socks5 unit (the `socks` client does the handshake; a refusal rejects). */
export async function viaSocks(
  u: ProxyUnit,
  target: string,
  o: { password?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(target);
  const { socket } = await SocksClient.createConnection({
    proxy: { host: u.ip, port: u.port, type: 5, userId: u.credentials?.username, password: o.password ?? u.credentials?.password },
    command: 'connect',
    destination: { host: url.hostname, port: Number(url.port) },
    timeout: 20_000,
  });
  return overSocket(socket, url, o.headers);
}

const basic = (u: ProxyUnit, password?: string) =>
  u.credentials ? `Basic ${Buffer.from(`${u.credentials.username}:${password ?? u.credentials.password}`).toString('base64')}` : undefined;

/** GET through an HTTP unit in absolute form; `auth: false` sends no Proxy-Authorization. */
export function viaHttp(
  u: ProxyUnit,
  target: string,
  o: { auth?: boolean; password?: string; localAddress?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const auth = o.auth === false ? undefined : basic(u, o.password);
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.ip,
      port: u.port,
      path: target,
      headers: { ...(o.headers ?? {}), ...(auth ? { 'proxy-authorization': auth } : {}) },
      localAddress: o.localAddress,
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.end();
  });
}

/** GET through an HTTP unit with a CONNECT tunnel; a refused CONNECT resolves with its status. */
export function viaConnect(u: ProxyUnit, target: string, o: { auth?: boolean; localAddress?: string } = {}): Promise<Answer> {
  const url = new URL(target);
  const auth = o.auth === false ? undefined : basic(u);
  return new Promise((resolve, reject) => {
    const sock = connect({ host: u.ip, port: u.port, localAddress: o.localAddress });
    sock.on('error', reject);
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      sock.off('data', onData);
      const status = Number(buf.split(' ')[1]);
      if (status !== 200) {
        sock.destroy();
        resolve(parse(buf));
        return;
      }
      overSocket(sock, url).then(resolve, reject);
    };
    sock.on('data', onData);
    sock.write(`CONNECT ${url.host} HTTP/1.1\r\nhost: ${url.host}\r\n${auth ? `proxy-authorization: ${auth}\r\n` : ''}\r\n`);
  });
}

/** Resolves with the error code of a plain TCP connect to a unit's ip:port ('ok' if it connected). */
export function tcpProbe(u: ProxyUnit): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host: u.ip, port: u.port });
    s.once('connect', () => {
      s.destroy();
      resolve('ok');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

/** A fast in-process sandbox for the tests of one file, and its echo target's URL (set in beforeAll). */
export function sandboxWithEcho(opts: SandboxOptions = {}): { sb: Sandbox; echo: string } {
  const t = {} as { sb: Sandbox; echo: string };
  beforeAll(async () => {
    t.sb = await startFastSandbox(opts);
    t.echo = `${t.sb.baseUrl}/echo`;
  });
  afterAll(() => t.sb.close());
  return t;
}
