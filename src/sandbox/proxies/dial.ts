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

export function dial(d: Dialer, host: string, port: number): Promise<Socket | DialFailure> {
  if (!isLoopbackDestination(host) || port < 1 || port > 65535) return Promise.resolve('not_allowed');
  const h = host.replace(/^\[|\]$/g, '');
  // An IPv6 target cannot leave from an IPv4 address: the OS picks ::1's own address then.
  const v4 = h.toLowerCase() === 'localhost' ? '127.0.0.1' : h;
  return new Promise((resolve) => {
    const s = connect({ host: v4, port, ...(d.localAddress && isIPv4(v4) ? { localAddress: d.localAddress } : {}) });
    s.once('connect', () => {
      s.removeAllListeners('error');
      s.on('error', () => s.destroy());
      resolve(s);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : 'unreachable'));
  });
}
