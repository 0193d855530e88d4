// Fixed-window request budgets per key (spec §8), in real seconds: the account-wide budget and
// the independent uptime budget are two instances of this class.
export interface Budget {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  allowed: boolean;
  /** Seconds to wait when not allowed. */
  retryAfter: number;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private current(key: string, now: number): Window {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.windows.clear();
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    return w;
  }

  /** Counts one request against the budget (a refused request is not counted). */
  hit(key: string, now = Date.now()): Budget {
    const w = this.current(key, now);
    const allowed = w.count < this.limit;
    if (allowed) w.count++;
    return this.describe(w, allowed, now);
  }

  /** The budget as it stands, without counting anything. */
  peek(key: string, now = Date.now()): Budget {
    return this.describe(this.current(key, now), true, now);
  }

  private describe(w: Window, allowed: boolean, now: number): Budget {
    const resetMs = w.start + this.windowMs;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.count),
      reset: Math.ceil(resetMs / 1000),
      allowed,
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
}
