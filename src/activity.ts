// What an API client is waiting for right now, so a spinner or a progress bar can say it
// ("waiting for api.example.com: 4s of 30s", "waiting 18 s for the rate limit") instead of standing
// still. One Activity per client (the context makes it, and the output layer reads the same one):
// each wait is its own entry, so one of several concurrent requests ending never hides the others.
// It also keeps what the client was charged for (each purchase and extension the API confirmed),
// so a run whose output fails after paying (a --jq error) still names what it bought (src/kit/action.ts).
import type { ActivityView, Charged } from './globals.js';

export interface Wait {
  /** host[:port] of the request, or what a retry waits for. */
  host: string;
  /** "answer" while a request is in flight; "retry" while backing off before the next attempt. */
  kind: 'answer' | 'retry';
  since: number;
  /** The --timeout of an attempt, or the backoff's length. */
  forMs: number;
  attempt: number;
}

const secs = (ms: number) => `${Math.max(0, Math.round(ms / 1000))}s`;

export class Activity implements ActivityView {
  private readonly waits = new Set<Wait>();
  /** Each waiter on the rate budget, with the epoch ms it waits until. */
  private readonly rateWaits = new Set<{ until: number }>();
  private readonly rateListeners = new Set<(until: number | undefined) => void>();
  private readonly charges: Charged[] = [];

  /** The API confirmed a charge (a 2xx answer to a purchase or an extension). */
  noteCharged(c: Charged): void {
    if (!this.charges.some((x) => x.ref === c.ref && x.kind === c.kind)) this.charges.push(c);
  }

  /** Every charge the API confirmed to this client, in order, each ref and kind once. */
  charged(): readonly Charged[] {
    return this.charges;
  }

  /** A wait begins; the function returned ends it. */
  begin(w: Wait): () => void {
    this.waits.add(w);
    return () => this.waits.delete(w);
  }

  /** A request starts waiting for the rate budget until `until` (epoch ms); the function returned ends it. */
  beginRateWait(until: number): () => void {
    const w = { until };
    this.rateWaits.add(w);
    this.tellRate();
    return () => {
      this.rateWaits.delete(w);
      this.tellRate();
    };
  }

  private rateUntil(): number | undefined {
    let until: number | undefined;
    for (const w of this.rateWaits) until = until === undefined ? w.until : Math.min(until, w.until);
    return until;
  }

  private tellRate(): void {
    const until = this.rateUntil();
    for (const l of this.rateListeners) l(until);
  }

  /** Told each time the rate-limit wait changes (its end, or undefined when none waits); returns the unsubscribe. */
  onRateWait(listener: (until: number | undefined) => void): () => void {
    this.rateListeners.add(listener);
    return () => this.rateListeners.delete(listener);
  }

  /** e.g. "waiting 18 s for the rate limit"; undefined when no request waits for it. */
  describeRateWait(now: number = Date.now()): string | undefined {
    const until = this.rateUntil();
    if (until === undefined) return undefined;
    return `waiting ${Math.max(1, Math.ceil((until - now) / 1000))} s for the rate limit`;
  }

  /** The longest-running wait, e.g. "waiting for api.example.com: 4s of 30s (attempt 2)"; undefined when idle. */
  describeWait(now: number = Date.now()): string | undefined {
    let w: Wait | undefined;
    for (const x of this.waits) if (!w || x.since < w.since) w = x;
    if (!w) return this.describeRateWait(now);
    const attempt = w.attempt > 1 ? ` (attempt ${w.attempt})` : '';
    if (w.kind === 'retry') return `trying ${w.host} again in ${secs(w.since + w.forMs - now)}${attempt}`;
    return `waiting for ${w.host}: ${secs(now - w.since)} of ${secs(w.forMs)}${attempt}`;
  }
}
