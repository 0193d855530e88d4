// Client-side pacing: a budget per window, seeded from the server's X-RateLimit-* headers, so
// bulk work waits before it would hit 429 instead of after. The uptime budget is separate.

import { setRateWait } from './activity.js';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RateHeaders {
  limit?: number | undefined;
  remaining?: number | undefined;
  /** Epoch milliseconds when the window resets. */
  resetAt?: number | undefined;
}

/**
 * X-RateLimit-Reset is specified as unix seconds, but some servers send seconds-from-now:
 * anything below ~2001-09-09 in epoch seconds is read as a delta.
 */
export function parseReset(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) return undefined;
  return n >= 1_000_000_000 ? n * 1000 : nowMs + n * 1000;
}

export function parseRateHeaders(headers: Record<string, string>, nowMs: number): RateHeaders {
  const num = (v: string | undefined) => {
    if (v === undefined || v.trim() === '') return undefined;
    const n = Number(v);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  return {
    limit: num(headers['x-ratelimit-limit']),
    remaining: num(headers['x-ratelimit-remaining']),
    resetAt: parseReset(headers['x-ratelimit-reset'], nowMs),
  };
}

/** How long past a window's announced reset we wait before counting on a fresh window. */
const RESET_SLACK_MS = 250;

export class RateBudget {
  private limit: number | undefined;
  /** Requests we may still send in the current window; undefined until a response seeds it. */
  private remaining: number | undefined;
  /** Epoch ms when the current window ends; 0 when unknown. */
  private resetAt = 0;
  private inFlight = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly now: () => number,
    private readonly sleep: Sleep,
  ) {}

  /** Waits until the budget allows one more request, then takes it. Serialised so waiters queue fairly. */
  acquire(signal?: AbortSignal): Promise<void> {
    const next = this.queue.then(() => this.take(signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (this.remaining === undefined) break;
      const now = this.now();
      if (this.resetAt > 0 && now >= this.resetAt + RESET_SLACK_MS) {
        // The window rolled over: the full limit again, less the requests still in flight (they
        // may be counted in the new window), until a response re-seeds the window.
        this.remaining = Math.max(0, (this.limit ?? 1) - this.inFlight);
        this.resetAt = 0;
      }
      if (this.remaining > 0) break;
      if (this.resetAt === 0 && this.inFlight === 0) {
        this.remaining = 1;
        break;
      }
      // Spent: wait for the window to end (a little past it: Reset has one-second granularity),
      // or, when the end is unknown, for an in-flight response to tell us. Then look again rather
      // than assume the full limit: answers that came in meanwhile may say we are already in a
      // newer window with part of it used (the server's window starts with its first request, so
      // it can end up to a second before the rounded-up Reset we knew). Assuming the full limit
      // there sent a burst into a window that could not take it: the paced-bulk 429.
      if (this.resetAt === 0) {
        await this.sleep(100, signal);
        continue;
      }
      setRateWait(this.resetAt + RESET_SLACK_MS);
      try {
        await this.sleep(this.resetAt - now + RESET_SLACK_MS, signal);
      } finally {
        setRateWait(undefined);
      }
    }
    if (this.remaining !== undefined) this.remaining -= 1;
    this.inFlight += 1;
  }

  /** Called once for every request that acquired a slot, with its response's headers if any. */
  update(h: RateHeaders | undefined): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (!h || h.remaining === undefined) return;
    if (h.limit !== undefined) this.limit = h.limit;
    // Requests still in flight were counted by us but perhaps not yet by this header.
    const fromServer = Math.max(0, h.remaining - this.inFlight);
    const newWindow = h.resetAt !== undefined && h.resetAt > this.resetAt + 500;
    if (newWindow || this.remaining === undefined) {
      this.remaining = fromServer;
      if (h.resetAt !== undefined) this.resetAt = h.resetAt;
    } else {
      this.remaining = Math.min(this.remaining, fromServer);
    }
  }

  /** A 429 says the budget is spent until Retry-After, whatever we thought: the server decides. */
  exhaust(untilMs: number): void {
    this.remaining = 0;
    this.resetAt = untilMs;
  }
}
