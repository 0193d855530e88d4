// A compact SOCKS5 server side (RFC 1928, CONNECT only) with username/password authentication
// (RFC 1929). The npm servers (socksv5, socks-server-lib) are unmaintained; this one is tested
// against the `socks` client and curl --socks5. It reads the unit's credentials when the client
// authenticates, so a PATCH applies to the next connection at once.
import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import type { Credentials } from '../validate.js';
import { dial, type Dialer } from './dial.js';

const VER = 0x05;
const AUTH_USERPASS = 0x02;
const NO_ACCEPTABLE = 0xff;
const REP = { ok: 0x00, failure: 0x01, notAllowed: 0x02, unreachable: 0x04, refused: 0x05, cmd: 0x07, atyp: 0x08 } as const;

/** Reads exactly what the protocol asks for, in order, from a socket that may deliver in pieces. */
class Reader {
  private buf: Buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private ended = false;
  constructor(private readonly sock: Socket) {
    sock.on('data', this.onData);
    sock.once('close', () => {
      this.ended = true;
      this.wake?.();
    });
  }
  private onData = (d: Buffer) => {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    this.wake?.();
  };
  async take(n: number): Promise<Buffer> {
    while (this.buf.length < n) {
      if (this.ended) throw new Error('client went away');
      await new Promise<void>((r) => {
        this.wake = r;
      });
      this.wake = undefined;
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
  /** Stops reading; returns what arrived beyond the handshake (sent on to the target). */
  release(): Buffer {
    this.sock.off('data', this.onData);
    return this.buf;
  }
}

export interface SocksUnit {
  credentials(): Credentials | null;
}

function reply(sock: Socket, rep: number, addr = '0.0.0.0', port = 0): void {
  const ip = isIP(addr) === 4 ? addr.split('.').map(Number) : [0, 0, 0, 0];
  sock.write(Buffer.from([VER, rep, 0x00, 0x01, ...ip, port >> 8, port & 0xff]));
}

async function destination(r: Reader): Promise<{ host: string; port: number } | number> {
  const [ver, cmd, , atyp] = await r.take(4);
  if (ver !== VER) return REP.failure;
  let host: string;
  if (atyp === 0x01) host = [...(await r.take(4))].join('.');
  else if (atyp === 0x03) host = (await r.take((await r.take(1))[0]!)).toString('latin1');
  else if (atyp === 0x04) {
    const b = await r.take(16);
    host = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(':');
  } else return REP.atyp;
  const port = (await r.take(2)).readUInt16BE(0);
  return cmd === 0x01 ? { host, port } : REP.cmd;
}

/** Serves one client connection of a socks5 unit to the end. */
export async function serveSocks5(sock: Socket, unit: SocksUnit, dialer: Dialer): Promise<void> {
  const r = new Reader(sock);
  try {
    const [ver, n] = await r.take(2);
    const methods = await r.take(n!);
    if (ver !== VER || !methods.includes(AUTH_USERPASS)) {
      sock.end(Buffer.from([VER, NO_ACCEPTABLE]));
      return;
    }
    sock.write(Buffer.from([VER, AUTH_USERPASS]));
    const [authVer, ulen] = await r.take(2);
    const user = (await r.take(ulen!)).toString('utf8');
    const pass = (await r.take((await r.take(1))[0]!)).toString('utf8');
    const c = unit.credentials();
    if (authVer !== 0x01 || !c || c.username !== user || c.password !== pass) {
      sock.end(Buffer.from([0x01, 0x01]));
      return;
    }
    sock.write(Buffer.from([0x01, 0x00]));
    const dest = await destination(r);
    if (typeof dest === 'number') {
      reply(sock, dest);
      sock.end();
      return;
    }
    const out = await dial(dialer, dest.host, dest.port);
    if (typeof out === 'string') {
      reply(sock, out === 'not_allowed' ? REP.notAllowed : out === 'refused' ? REP.refused : REP.unreachable);
      sock.end();
      return;
    }
    reply(sock, REP.ok, out.localAddress, out.localPort);
    const early = r.release();
    if (early.length) out.write(early);
    sock.pipe(out).pipe(sock);
    out.on('error', () => sock.destroy());
    out.on('close', () => sock.destroy());
    sock.on('close', () => out.destroy());
  } catch {
    sock.destroy();
  }
}
