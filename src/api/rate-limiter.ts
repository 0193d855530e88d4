// Client-side pacing: a budget per window, seeded from the server's X-RateLimit-* headers, so
// bulk work waits before it would hit 429 instead of after. The uptime budget is separate.

import type { Activity } from '../activity.js';

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
/** How long past a window's learned end (below) we wait before probing for the next one. */
const EARLY_SLACK_MS = 10;

/** What `acquire()` hands out and `update()` takes back: when the request went, and whether it probes. */
export interface RateTicket {
  sentAt: number;
  /** Sent before the announced reset, on the learned end of the window (`endsBy`); its answer decides. */
  probe: boolean;
  /** The announced reset of the window the probe meant to leave. */
  leaving: number;
}

/**
 * Spec §8: a budget of N requests per minute per key, in a window that "resets" at X-RateLimit-Reset
 * (unix seconds). Waiting for that second wastes up to a second per window: a window that starts
 * at 12:00:00.300 ends at 12:01:00.300 but is announced as 12:01:01. So the budget also learns the
 * window's real end from the answer of the request that opened it (Remaining = Limit − 1: it was
 * the first the server counted): that request reached the server between its send and its answer,
 * so the window ends no later than answer + length, and its length (a whole number of seconds, as
 * the spec's "per minute" is) is at most Reset − send, rounded down to a second. At that end one
 * request is sent alone (a probe) and the rest wait for its answer: a new window lets them go; an
 * answer from the old window (the server's windows do not start with their first request, e.g.
 * they are aligned to the clock) turns the learning off for good, so that case costs at most
 * one 429, which the client waits out as the spec says.
 */
export class RateBudget {
  private limit: number | undefined;
  /** Requests we may still send in the current window; undefined until a response seeds it. */
  private remaining: number | undefined;
  /** Epoch ms when the current window ends; 0 when unknown. */
  private resetAt = 0;
  /** The current window's learned end (≤ resetAt), or 0 when not learned. */
  private endsBy = 0;
  /** The longest the server's window can be, learned from answers (whole seconds). */
  private windowMs = Number.POSITIVE_INFINITY;
  /** False once the server showed that its windows do not start with their first request. */
  private learning = true;
  private probing = false;
  private inFlight = 0;
  private queue: Promise<void> = Promise.resolve();
  /** Wakes the waiting request early when an answer arrives. */
  private answered: (() => void) | undefined;

  constructor(
    private readonly now: () => number,
    private readonly sleep: Sleep,
    /** Told while a request waits for the window (spinners and bars say so). */
    private readonly activity?: Activity,
  ) {}

  /** Waits until the budget allows one more request, then takes it. Serialised so waiters queue fairly. */
  acquire(signal?: AbortSignal): Promise<RateTicket> {
    const next = this.queue.then(() => this.take(signal));
    this.queue = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async take(signal?: AbortSignal): Promise<RateTicket> {
    let probe = false;
    for (;;) {
      if (this.remaining === undefined) break;
      const now = this.now();
      if (this.resetAt > 0 && now >= this.resetAt + RESET_SLACK_MS) {
        // The window rolled over: the full limit again, less the requests still in flight (they
        // may be counted in the new window), until a response re-seeds the window.
        this.remaining = Math.max(0, (this.limit ?? 1) - this.inFlight);
        this.resetAt = 0;
        this.endsBy = 0;
      }
      if (this.remaining > 0) break;
      if (this.resetAt === 0 && this.inFlight === 0) {
        this.remaining = 1;
        break;
      }
      if (this.learning && this.endsBy > 0 && !this.probing && now >= this.endsBy + EARLY_SLACK_MS) {
        this.remaining = 1;
        probe = true;
        break;
      }
      // Spent: wait for the window to end (a little past it: Reset has one-second granularity), or
      // for its learned end, or, when the end is unknown or a probe is out, for an answer to tell
      // us. Then look again rather than assume the full limit: answers that came in meanwhile may
      // say we are already in a newer window with part of it used. Assuming the full limit there
      // sent a burst into a window that could not take it: the paced-bulk 429.
      if (this.resetAt === 0) {
        await this.untilAnswerOr(100, signal);
        continue;
      }
      const wake =
        this.learning && this.endsBy > 0 && !this.probing
          ? Math.min(this.endsBy + EARLY_SLACK_MS, this.resetAt + RESET_SLACK_MS)
          : this.resetAt + RESET_SLACK_MS;
      const end = this.activity?.beginRateWait(wake);
      try {
        await this.untilAnswerOr(wake - now, signal);
      } finally {
        end?.();
      }
    }
    if (this.remaining !== undefined) this.remaining -= 1;
    this.inFlight += 1;
    if (probe) this.probing = true;
    return { sentAt: this.now(), probe, leaving: this.resetAt };
  }

  /** Sleeps `ms`, or less when an answer arrives meanwhile (it may change what we know). */
  private untilAnswerOr(ms: number, signal?: AbortSignal): Promise<void> {
    // The sleep listens to our own signal, which the caller's abort also fires (no AbortSignal.any:
    // a bulk run may wait thousands of times).
    const woken = new AbortController();
    const onAbort = () => woken.abort();
    if (signal?.aborted) woken.abort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    return new Promise<void>((resolve, reject) => {
      this.answered = () => {
        resolve();
        woken.abort();
      };
      this.sleep(Math.max(0, ms), woken.signal).then(resolve, (err) => (signal?.aborted ? reject(err) : resolve()));
    }).finally(() => {
      this.answered = undefined;
      signal?.removeEventListener('abort', onAbort);
    });
  }

  /**
   * Called once for every request that acquired a slot, with its response's headers if any and
   * the ticket `acquire()` gave it (without one, nothing is learned about the window's end).
   */
  update(h: RateHeaders | undefined, ticket?: RateTicket): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (ticket?.probe) this.probing = false;
    if (h && h.remaining !== undefined) this.seed(h, h.remaining, ticket);
    this.answered?.();
  }

  private seed(h: RateHeaders, remaining: number, ticket: RateTicket | undefined): void {
    if (h.limit !== undefined) this.limit = h.limit;
    // The probe was answered from the window it meant to leave: the server's windows do not
    // start with their first request, and what we learned does not hold. Back to Reset alone.
    if (ticket?.probe && h.resetAt !== undefined && h.resetAt <= ticket.leaving + 500) {
      this.learning = false;
      this.endsBy = 0;
    }
    // Requests still in flight were counted by us but perhaps not yet by this header.
    const fromServer = Math.max(0, remaining - this.inFlight);
    const newWindow = h.resetAt !== undefined && h.resetAt > this.resetAt + 500;
    if (newWindow || this.remaining === undefined) {
      this.remaining = fromServer;
      if (h.resetAt !== undefined) this.resetAt = h.resetAt;
      this.endsBy = 0;
    } else {
      this.remaining = Math.min(this.remaining, fromServer);
    }
    // This request opened its window: it reached the server between sentAt and now.
    if (this.learning && ticket && h.resetAt !== undefined && this.limit !== undefined && remaining === this.limit - 1) {
      const length = Math.floor((h.resetAt - ticket.sentAt) / 1000) * 1000;
      if (length >= 1000) this.windowMs = Math.min(this.windowMs, length);
      if (Number.isFinite(this.windowMs) && Math.abs(h.resetAt - this.resetAt) <= 500) {
        this.endsBy = Math.min(this.resetAt, this.now() + this.windowMs);
      }
    }
  }

  /** A 429 says the budget is spent until Retry-After, whatever we thought: the server decides. */
  exhaust(untilMs: number): void {
    this.remaining = 0;
    this.resetAt = untilMs;
    this.endsBy = 0;
    this.answered?.();
  }
}
