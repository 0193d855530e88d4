// The sandbox's clock: real time compressed by `timeScale` since start, plus whatever the control
// endpoint has advanced. Expiries, idempotency windows and webhook retry delays all read it, so a
// test can live through a 30-day unit or a 6-hour retry in milliseconds.
export class Clock {
  private readonly realStart: number;
  private offsetMs = 0;

  constructor(
    readonly timeScale = 1,
    private readonly realNow: () => number = Date.now,
  ) {
    if (!(timeScale > 0)) throw new RangeError('timeScale must be > 0');
    this.realStart = realNow();
  }

  /** Sandbox time in epoch milliseconds. */
  now(): number {
    return this.realStart + (this.realNow() - this.realStart) * this.timeScale + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  /** Never let a restored state see time run backwards (a persisted unit must not "un-expire"). */
  notBefore(epochMs: number): void {
    const n = this.now();
    if (n < epochMs) this.offsetMs += epochMs - n;
  }

  /** Real milliseconds until sandbox time reaches `epochMs`. */
  realDelayUntil(epochMs: number): number {
    return Math.max(0, (epochMs - this.now()) / this.timeScale);
  }
}
