// Where the sandbox's proxies listen, and what the rest of the sandbox may ask of them (kept apart
// from the hub so the world can hold one without an import cycle).
import { isIPv4 } from 'node:net';
import type { UnitRecord } from '../state.js';

export const DEFAULT_MAX_PROXIES = 1000;

/** A pool's address with proxies on: 198.51.X.Y becomes 127.51.X.Y, or 127.0.0.1 for all. */
export function loopbackHost(documentationHost: string, perPool: boolean): string {
  return perPool ? documentationHost.replace(/^\d+\./, '127.') : '127.0.0.1';
}

export function isLoopbackIp(ip: string): boolean {
  return isIPv4(ip) && ip.startsWith('127.');
}

/** The units' proxies, as the handlers drive them (implemented by ProxyHub). */
export interface Proxies {
  /** Each pool has its own 127.x address (else every unit is on 127.0.0.1). */
  readonly perPool: boolean;
  sync(u: UnitRecord, opts?: { freshPort?: boolean }): Promise<void>;
  syncPool(poolId: string, freshPort?: boolean): Promise<void>;
  sweep(): Promise<void>;
  flush(u: UnitRecord): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}
