// A fleet of units put straight into a kit's sandbox, each with the pool, time left, protocol,
// credentials and description a test chooses (buying them would take a request each, and could
// not choose the expiry). The sandbox's clock is stopped so that time left stays exact.
import type { Kit } from './sandbox-kit.js';
import { placement } from '../../src/sandbox/units-model.js';
import type { UnitRecord } from '../../src/sandbox/state.js';

export interface UnitSpec {
  /** Default: the first available pool. */
  poolId?: string;
  /** Hours until expiry; 0 or less is an expired unit. */
  hoursLeft: number;
  protocol?: UnitRecord['protocol'];
  credentials?: UnitRecord['credentials'];
  description?: string;
  released?: boolean;
}

/** Adds the units in order (PRX-n refs follow the sandbox's sequence) and returns their refs. */
export function seedFleet(k: Kit, specs: UnitSpec[]): string[] {
  const w = k.sb.world;
  const now = w.clock.now();
  w.clock.now = () => now;
  const first = w.pools.find((p) => p.available) ?? w.pools[0]!;
  return specs.map((s) => {
    const pool = s.poolId ? w.poolById.get(s.poolId)! : first;
    const seq = w.state.nextUnitSeq++;
    const noauth = s.protocol === 'http_noauth';
    const u: UnitRecord = {
      proxyRef: `PRX-${seq}`,
      seq,
      ...placement(pool, seq, 0),
      protocol: s.protocol ?? 'socks5',
      credentials: s.credentials !== undefined ? s.credentials : noauth ? null : { username: `user${seq}`, password: `pass${seq}` },
      savedCredentials: null,
      allowedIps: noauth ? ['203.0.113.7'] : [],
      description: s.description ?? '',
      period: '7d',
      pricePaid: 1,
      createdAt: now - 3_600_000,
      expiresAt: now + s.hoursLeft * 3_600_000,
      lastSwap: null,
      lastExtended: null,
      swapCount: 0,
      releasedAt: s.released ? now : null,
    };
    w.state.units.set(u.proxyRef, u);
    return u.proxyRef;
  });
}

/** Two different available pools of the kit's sandbox. */
export function twoPools(k: Kit): [string, string] {
  const ids = k.sb.world.pools.filter((p) => p.available).map((p) => p.poolId);
  return [ids[0]!, ids[1]!];
}
