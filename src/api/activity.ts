// What the API client is waiting for right now, so a spinner can say it ("waiting for
// api.example.com, 4s of 30s") instead of spinning in silence while a server does not answer.
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

let current: Wait | undefined;

export function setWait(w: Wait | undefined): void {
  current = w;
}

const secs = (ms: number) => `${Math.max(0, Math.round(ms / 1000))}s`;

/** e.g. "waiting for api.example.com: 4s of 30s (attempt 2)"; undefined when idle. */
export function describeWait(now: number = Date.now()): string | undefined {
  const w = current;
  if (!w) return describeRateWait(now);
  const attempt = w.attempt > 1 ? ` (attempt ${w.attempt})` : '';
  if (w.kind === 'retry') return `trying ${w.host} again in ${secs(w.since + w.forMs - now)}${attempt}`;
  return `waiting for ${w.host}: ${secs(now - w.since)} of ${secs(w.forMs)}${attempt}`;
}

// The client's own pacing: while the rate budget is spent, requests wait for the window to end.
// Bars and spinners say so ("waiting 18 s for the rate limit") instead of standing still.
let rateUntil: number | undefined;
const rateListeners = new Set<(until: number | undefined) => void>();

/** Set by the rate budget when it starts waiting (epoch ms it waits until), cleared when it stops. */
export function setRateWait(until: number | undefined): void {
  rateUntil = until;
  for (const l of rateListeners) l(until);
}

/** Told each time a rate-limit wait starts (with its end) or stops (undefined); returns the unsubscribe. */
export function onRateWait(listener: (until: number | undefined) => void): () => void {
  rateListeners.add(listener);
  return () => rateListeners.delete(listener);
}

/** e.g. "waiting 18 s for the rate limit"; undefined when no request waits for it. */
export function describeRateWait(now: number = Date.now()): string | undefined {
  if (rateUntil === undefined) return undefined;
  return `waiting ${Math.max(1, Math.ceil((rateUntil - now) / 1000))} s for the rate limit`;
}
