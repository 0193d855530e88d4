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

const TERMINAL = new Set(['DELIVERED', 'FAILED']);

/** Creation time in epoch ms, or NaN when the server did not say. */
function createdMs(d: Delivery): number {
  return typeof d.createdAt === 'string' ? Date.parse(d.createdAt) : Number.NaN;
}

export class DeliveryTracker {
  private readonly known = new Map<string, Delivery>();
  /** Creation time of the newest delivery known: anything unknown and older is not new. */
  private newest = Number.NEGATIVE_INFINITY;

  /**
   * How far back (creation time, epoch ms) a poll must read: past the newest delivery already
   * known (so nothing created since is skipped, however many arrived) and past the oldest one
   * still PENDING (so its attempts and final status are seen). -Infinity: read everything.
   */
  horizon(): number {
    let h = this.newest;
    for (const d of this.known.values()) {
      if (!TERMINAL.has(d.status ?? '')) {
        const t = createdMs(d);
        h = Math.min(h, Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t);
      }
    }
    return h;
  }

  /**
   * Whether a page (newest first) reaches back past the horizon, so older pages have nothing
   * this poll needs. Without creation times, a page that holds an already known delivery does.
   */
  reached(page: readonly Delivery[], horizon: number): boolean {
    const valid = page.filter((d) => d && typeof d.id === 'string');
    const oldest = valid.at(-1);
    if (!oldest) return true;
    const t = createdMs(oldest);
    if (Number.isNaN(t)) return valid.some((d) => this.known.has(d.id));
    return t < horizon;
  }

  /**
   * Changes since the last poll, oldest first, so they print in the order they happened.
   * `items` is the log, newest first, as the API returns it (one or more pages; a delivery may
   * appear twice when new ones pushed it onto the next page between two page reads); `initial`
   * marks the first poll, whose deliveries are reported as `existing`.
   */
  diff(items: readonly Delivery[], initial = false): DeliveryChange[] {
    const changes: DeliveryChange[] = [];
    const newestBefore = this.newest;
    for (const d of [...items].reverse()) {
      if (!d || typeof d.id !== 'string') continue;
      const before = this.known.get(d.id);
      this.known.set(d.id, d);
      const t = createdMs(d);
      if (!Number.isNaN(t)) this.newest = Math.max(this.newest, t);
      if (!before) {
        // Older than what was already known: it was in the log before following began, beyond
        // the first page; it becomes known silently.
        if (!initial && !Number.isNaN(t) && t < newestBefore) continue;
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
