// Outgoing connections of a sandbox proxy: loopback destinations only (the sandbox is a local
// stand-in, never an open relay), leaving from the unit's own address when the sandbox gives each
// pool its own 127.x address, so the target sees a distinct exit address per pool.
import { connect, isIPv4, type Socket } from 'node:net';

export interface Dialer {
  /** Local address for outgoing connections; undefined lets the OS choose (127.0.0.1 mode). */
  localAddress: string | undefined;
}

export type DialFailure = 'not_allowed' | 'refused' | 'unreachable';

/** 127.0.0.0/8, ::1 and `localhost`: the only destinations a sandbox proxy connects to. */
export function isLoopbackDestination(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1' || (isIPv4(h) && h.startsWith('127.'));
}

/**
 * Where a connection to a loopback `host` goes and leaves from: `localhost` is 127.0.0.1, and an
 * IPv6 target cannot leave from an IPv4 address (the OS picks ::1's own address then).
 */
export function route(d: Dialer, host: string): { host: string; localAddress?: string } {
  const h = host.replace(/^\[|\]$/g, '');
  const to = h.toLowerCase() === 'localhost' ? '127.0.0.1' : h;
  return d.localAddress && isIPv4(to) ? { host: to, localAddress: d.localAddress } : { host: to };
}

export function dial(d: Dialer, host: string, port: number): Promise<Socket | DialFailure> {
  if (!isLoopbackDestination(host) || port < 1 || port > 65535) return Promise.resolve('not_allowed');
  return new Promise((resolve) => {
    const s = connect({ ...route(d, host), port });
    s.once('connect', () => {
      s.removeAllListeners('error');
      s.on('error', () => s.destroy());
      resolve(s);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : 'unreachable'));
  });
}
