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
  if (!w) return undefined;
  const attempt = w.attempt > 1 ? ` (attempt ${w.attempt})` : '';
  if (w.kind === 'retry') return `trying ${w.host} again in ${secs(w.since + w.forMs - now)}${attempt}`;
  return `waiting for ${w.host}: ${secs(now - w.since)} of ${secs(w.forMs)}${attempt}`;
}
