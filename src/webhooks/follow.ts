// What changed in the delivery log between two polls: new deliveries, and changes of the fields
// that tell a delivery's story (status, attempts, response status, next attempt, last error).
import type { Delivery } from './events.js';

export const TRACKED_FIELDS = ['status', 'attempts', 'responseStatus', 'nextAttemptAt', 'lastError'] as const;
export type TrackedField = (typeof TRACKED_FIELDS)[number];

export interface DeliveryChange {
  /** `existing`: already in the log when following started. */
  type: 'existing' | 'new' | 'changed';
  /** The tracked fields that differ from the previous poll (empty for a new delivery). */
  changed: TrackedField[];
  /** Previous values of the changed fields. */
  previous: Partial<Record<TrackedField, unknown>>;
  delivery: Delivery;
}

export class DeliveryTracker {
  private readonly known = new Map<string, Delivery>();

  /**
   * Changes since the last poll, oldest first, so they print in the order they happened.
   * `items` is a page of the log, newest first, as the API returns it; `initial` marks the
   * first poll, whose deliveries are reported as `existing`.
   */
  diff(items: readonly Delivery[], initial = false): DeliveryChange[] {
    const changes: DeliveryChange[] = [];
    for (const d of [...items].reverse()) {
      if (!d || typeof d.id !== 'string') continue;
      const before = this.known.get(d.id);
      this.known.set(d.id, d);
      if (!before) {
        changes.push({ type: initial ? 'existing' : 'new', changed: [], previous: {}, delivery: d });
        continue;
      }
      const changed = TRACKED_FIELDS.filter((f) => (before[f] ?? null) !== (d[f] ?? null));
      if (changed.length > 0) {
        const previous: Partial<Record<TrackedField, unknown>> = {};
        for (const f of changed) previous[f] = before[f] ?? null;
        changes.push({ type: 'changed', changed, previous, delivery: d });
      }
    }
    return changes;
  }
}
