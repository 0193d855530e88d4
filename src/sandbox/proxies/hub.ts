// Every ACTIVE unit of the sandbox as a real proxy on loopback: one listener per unit at the
// unit's `ip:port`, speaking the unit's protocol as it is when a client connects. The unit's life
// drives its listener through `sync` (create, swap, extend, release, triggers, expiry sweep), and
// the bytes its clients exchange become its usage.
import { createServer, type Server, type Socket } from 'node:net';
import { unitStatus } from '../units-model.js';
import { carriedAgainstLimit } from '../usage.js';
import type { UnitRecord } from '../state.js';
import type { World } from '../world.js';
import type { Proxies } from './addresses.js';
import type { Dialer } from './dial.js';
import { HttpProxy } from './http-proxy.js';
import { serveSocks5 } from './socks5.js';

const SWEEP_MS = 250;
const PERSIST_TRAFFIC_MS = 2000;
const PROBE_ADDRESS = '127.51.100.254';

interface Slot {
  server: Server;
  ip: string;
  port: number;
  /** Open client sockets and the bytes of each already counted. */
  sockets: Map<Socket, number>;
}

function listen(ip: string, port: number, onConnection: (s: Socket) => void): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(onConnection);
    server.once('error', reject);
    server.listen({ host: ip, port, exclusive: true }, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Whether this OS lets a process bind 127.x.y.z beyond 127.0.0.1 (Linux does; macOS needs aliases). */
export async function loopbackAliases(): Promise<boolean> {
  try {
    const s = await listen(PROBE_ADDRESS, 0, (c) => c.destroy());
    await new Promise((r) => s.close(r));
    return true;
  } catch {
    return false;
  }
}

export class ProxyHub implements Proxies {
  private readonly slots = new Map<string, Slot>();
  /** Units holding one of the `maxProxies` places (listening, or down until restored). */
  private readonly reserved = new Set<string>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly http = new HttpProxy();
  private readonly timer: NodeJS.Timeout;
  private trafficDirty = false;
  private lastTrafficSave = 0;
  private closed = false;

  constructor(
    private readonly w: World,
    readonly perPool: boolean,
    readonly maxProxies: number,
  ) {
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  /** How many units hold a proxy place right now. */
  get proxiedCount(): number {
    return this.reserved.size;
  }

  /** Whether a unit should accept connections now. */
  private wanted(u: UnitRecord): boolean {
    return unitStatus(u, this.w.clock.now()) === 'ACTIVE' && u.proxied === true && !u.down && !this.w.poolDown(u.poolId);
  }

  /**
   * Brings the unit's listener in line with its record. `freshPort` (create, swap) listens on a
   * new port; otherwise the unit's port is tried first and a new one taken if it is in use (the
   * record, and so the API, then shows the new one). Calls for one unit run one after another.
   */
  sync(u: UnitRecord, opts: { freshPort?: boolean } = {}): Promise<void> {
    const prev = this.pending.get(u.proxyRef) ?? Promise.resolve();
    const next = prev.then(() => this.apply(u, opts.freshPort === true));
    const settled = next.catch((e: unknown) => this.w.o.log(`sandbox: proxy of ${u.proxyRef}: ${(e as Error).message}`));
    this.pending.set(u.proxyRef, settled);
    void settled.then(() => {
      if (this.pending.get(u.proxyRef) === settled) this.pending.delete(u.proxyRef);
    });
    return settled;
  }

  private async apply(u: UnitRecord, freshPort: boolean): Promise<void> {
    if (this.closed) return;
    const active = unitStatus(u, this.w.clock.now()) === 'ACTIVE';
    if (!active) {
      this.reserved.delete(u.proxyRef);
      await this.stop(u.proxyRef);
      return;
    }
    if (u.proxied === false) return;
    if (!this.reserved.has(u.proxyRef)) {
      if (this.reserved.size >= this.maxProxies) {
        // Sold past the limit: the unit keeps the port it was placed on, and nothing listens there.
        u.proxied = false;
        await this.stop(u.proxyRef);
        return;
      }
      this.reserved.add(u.proxyRef);
      u.proxied = true;
    }
    const pool = this.w.poolById.get(u.poolId);
    if (pool && u.ip !== pool.host) u.ip = pool.host;
    const slot = this.slots.get(u.proxyRef);
    const want = this.wanted(u);
    if (slot && (!want || freshPort || slot.ip !== u.ip || slot.port !== u.port)) await this.stop(u.proxyRef);
    if (!want || this.slots.has(u.proxyRef)) return;
    const ref = u.proxyRef;
    const onConnection = (s: Socket) => this.accept(ref, s);
    let server: Server;
    try {
      server = await listen(u.ip, freshPort ? 0 : u.port, onConnection);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (e as NodeJS.ErrnoException).code !== 'EACCES') throw e;
      server = await listen(u.ip, 0, onConnection);
    }
    if (this.closed) {
      server.close();
      return;
    }
    const port = (server.address() as { port: number }).port;
    u.port = port;
    this.slots.set(ref, { server, ip: u.ip, port, sockets: new Map() });
  }

  /** Closes a unit's listener and drops its connections (a downed or gone proxy cuts them). */
  private async stop(ref: string): Promise<void> {
    const slot = this.slots.get(ref);
    if (!slot) return;
    this.slots.delete(ref);
    const u = this.w.state.units.get(ref);
    for (const s of slot.sockets.keys()) {
      if (u) this.count(u, s, slot);
      s.destroy();
    }
    await new Promise((r) => slot.server.close(r));
  }

  private accept(ref: string, sock: Socket): void {
    sock.on('error', () => sock.destroy());
    const u = this.w.state.units.get(ref);
    const slot = this.slots.get(ref);
    if (!u || !slot || !this.wanted(u)) {
      // Expired since the last sweep (or the record changed): refuse, and close the listener.
      sock.destroy();
      if (u) void this.sync(u);
      return;
    }
    slot.sockets.set(sock, 0);
    sock.once('close', () => {
      this.count(u, sock, slot);
      slot.sockets.delete(sock);
    });
    const dialer: Dialer = { localAddress: this.perPool ? slot.ip : undefined };
    if (u.protocol === 'socks5') void serveSocks5(sock, { credentials: () => u.credentials }, dialer);
    else
      this.http.serve(sock, {
        protocol: () => u.protocol,
        credentials: () => u.credentials,
        allowedIps: () => u.allowedIps,
        dialer,
      });
  }

  /** Adds what a socket carried since it was last counted to its unit's traffic. */
  private count(u: UnitRecord, sock: Socket, slot: Slot): void {
    const seen = slot.sockets.get(sock);
    if (seen === undefined) return;
    const total = sock.bytesRead + sock.bytesWritten;
    if (total === seen) return;
    slot.sockets.set(sock, total);
    const day = Math.floor(this.w.clock.now() / 86_400_000);
    u.traffic ??= { totalBytes: 0, day, dayBytes: 0 };
    const t = u.traffic;
    if (t.day !== day) Object.assign(t, { day, dayBytes: 0 });
    t.totalBytes += total - seen;
    t.dayBytes += total - seen;
    this.trafficDirty = true;
    this.usageEvents(u);
  }

  /** usage.warning at 80% and usage.throttled at 100% of the unit's limit, once per limit period. */
  private usageEvents(u: UnitRecord): void {
    const t = u.traffic!;
    const { consumedMb, limitMb, period } = carriedAgainstLimit(u, this.w.clock.now());
    if (consumedMb >= 0.8 * limitMb && t.warnedIn !== period) {
      t.warnedIn = period;
      this.w.emit('usage.warning', { proxyRef: u.proxyRef, kind: 'throttle', thresholdPct: 80, consumedMb, limitMb });
    }
    if (consumedMb >= limitMb && t.throttledIn !== period) {
      t.throttledIn = period;
      this.w.emit('usage.throttled', { proxyRef: u.proxyRef, throttleSpeedMbps: 1, durationHours: 24, consumedMb, limitMb });
    }
  }

  /** Counts the traffic of a unit's open connections now (before its usage is read). */
  flush(u: UnitRecord): void {
    const slot = this.slots.get(u.proxyRef);
    if (slot) for (const s of slot.sockets.keys()) this.count(u, s, slot);
  }

  /** Closes the listeners of units that expired; counts open connections' traffic. */
  async sweep(): Promise<void> {
    if (this.closed) return;
    const work: Promise<void>[] = [];
    for (const ref of new Set([...this.reserved, ...this.slots.keys()])) {
      const u = this.w.state.units.get(ref);
      if (!u) continue;
      this.flush(u);
      if (unitStatus(u, this.w.clock.now()) !== 'ACTIVE') work.push(this.sync(u));
    }
    await Promise.all(work);
    if (this.trafficDirty && Date.now() - this.lastTrafficSave >= PERSIST_TRAFFIC_MS) {
      this.trafficDirty = false;
      this.lastTrafficSave = Date.now();
      this.w.persist();
    }
  }

  /** Every unit of a pool, re-synced (server.down/up, server.ip_changed; `freshPort` moves them on one address). */
  async syncPool(poolId: string, freshPort = false): Promise<void> {
    await Promise.all([...this.w.state.units.values()].filter((u) => u.poolId === poolId).map((u) => this.sync(u, { freshPort })));
  }

  /** At start: listen again for the ACTIVE units of a restored state. */
  async restore(): Promise<void> {
    const now = this.w.clock.now();
    await Promise.all(
      [...this.w.state.units.values()].filter((u) => unitStatus(u, now) === 'ACTIVE' && u.proxied !== false).map((u) => this.sync(u)),
    );
  }

  /** Closes every listener and connection at once (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    // stop() counts each connection's last bytes before cutting it.
    const all = [...this.slots.keys()];
    await Promise.all(all.map((ref) => this.stop(ref)));
    this.http.close();
    if (this.trafficDirty) this.w.persist();
  }
}
