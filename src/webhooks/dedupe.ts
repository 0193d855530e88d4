// Recognising a delivery again. X-Service-Delivery changes per attempt, so a delivery is known by
// the payload's id, or, for a payload without one, by its exact bytes (occurredAt makes those
// unique per event). The receiver counts redeliveries by this key; `--exec` runs once per key.
import { createHash } from 'node:crypto';

/** The same for every attempt of one delivery: its payload id, else `sha256:<hex>` of its body. */
export function deliveryKey(deliveryId: string | undefined, body: Buffer): string {
  return deliveryId ?? `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

/** Keys handled so far, for doing something once per delivery; past `max`, the oldest is forgotten. */
export class HandledOnce {
  private readonly keys = new Set<string>();

  constructor(private readonly max: number) {}

  /** True the first time `key` is claimed; false while it is remembered. */
  claim(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    if (this.keys.size > this.max) this.keys.delete(this.keys.values().next().value as string);
    return true;
  }
}
