// The sandbox's clock: real time compressed by `timeScale` since start, plus whatever the control
// endpoint has advanced. Expiries, idempotency windows and webhook retry delays all read it, so a
// test can live through a 30-day unit or a 6-hour retry in milliseconds.
/**
 * The last instant the sandbox keeps (9999-12-31T23:59:59.999Z, the last with a four-digit ISO
 * year): the clock is never advanced past it and no unit expires after it, so every date the API
 * answers stays a plain ISO 8601 date-time.
 */
export const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The fastest clock the sandbox runs (sandbox seconds per real second): a 30-day unit then lasts
 * under 3 real seconds. A larger factor gains no test anything and only brings the end of the
 * clock nearer (at 1e10 it is 25 real seconds away), so it is refused at start.
 */
export const MAX_TIME_SCALE = 1_000_000;

export class Clock {
  private readonly realStart: number;
  private offsetMs = 0;

  constructor(
    readonly timeScale = 1,
    private readonly realNow: () => number = Date.now,
  ) {
    if (!(timeScale > 0 && timeScale <= MAX_TIME_SCALE)) throw new RangeError(`timeScale must be > 0 and at most ${MAX_TIME_SCALE}`);
    this.realStart = realNow();
  }

  /**
   * Sandbox time in epoch milliseconds. It stops at LATEST_MS: real time running on after an
   * advance to the end (or a scaled clock reaching it) leaves every date at the last one the ISO
   * format holds, never `+010000-…` in an answer, a delivery or the state file.
   */
  now(): number {
    return Math.min(LATEST_MS, this.realStart + (this.realNow() - this.realStart) * this.timeScale + this.offsetMs);
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** The most seconds `advance` accepts now: up to LATEST_MS. */
  maxAdvanceSeconds(): number {
    return Math.max(0, Math.floor((LATEST_MS - this.now()) / 1000));
  }

  advance(seconds: number): void {
    if (!(seconds >= 0 && seconds <= this.maxAdvanceSeconds()))
      throw new RangeError(
        `seconds must be between 0 and ${this.maxAdvanceSeconds()} (the clock stops at ${new Date(LATEST_MS).toISOString()})`,
      );
    this.offsetMs += seconds * 1000;
  }

  /** Never let a restored state see time run backwards (a persisted unit must not "un-expire"). */
  notBefore(epochMs: number): void {
    const n = this.now();
    if (n < epochMs) this.offsetMs += Math.min(epochMs, LATEST_MS) - n;
  }

  /** `epochMs` (a time computed from now: a retry's due time), no later than the end of the clock. */
  atMost(epochMs: number): number {
    return Math.min(epochMs, LATEST_MS);
  }

  /** Real milliseconds until sandbox time reaches `epochMs`. */
  realDelayUntil(epochMs: number): number {
    return Math.max(0, (epochMs - this.now()) / this.timeScale);
  }
}
