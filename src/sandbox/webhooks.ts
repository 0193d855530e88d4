// The delivery pipeline of spec §6: every event becomes a delivery record; each attempt POSTs the
// same raw JSON with the four X-Service-* headers and an HMAC-SHA256 signature; a non-2xx answer,
// an error or a timeout schedules the next attempt after 1m, 5m, 30m, 2h, 6h (sandbox time, so
// --time-scale and /_sandbox/advance compress them); after the 6th attempt the record is FAILED.
import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Clock } from './clock.js';
import { randomHex } from './random.js';
import type { DeliveryRecord, SandboxState } from './state.js';

export const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 21600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function publicDelivery(d: DeliveryRecord): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.event,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    maxAttempts: d.maxAttempts,
    responseStatus: d.responseStatus,
    lastError: d.lastError,
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: iso(d.createdAt),
    deliveredAt: iso(d.deliveredAt),
    test: d.test,
  };
}

interface AttemptResult {
  status: number | null;
  error: string | null;
}

function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let done = false;
    let deadline: NodeJS.Timeout | undefined;
    const finish = (r: AttemptResult) => {
      if (!done) {
        done = true;
        clearTimeout(deadline);
        resolve(r);
      }
    };
    let req: ReturnType<typeof httpRequest>;
    try {
      const u = new URL(url);
      const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
      req = send(u, { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        res.resume();
        res.on('end', () => finish({ status: res.statusCode ?? null, error: null }));
        res.on('error', (e) => finish({ status: res.statusCode ?? null, error: e.message }));
      });
    } catch (e) {
      finish({ status: null, error: (e as Error).message });
      return;
    }
    // The receiver has timeoutMs in total to answer (spec §6.1: 2xx within 5 seconds), not per
    // silence: a receiver that trickles bytes must not hold a delivery open for ever.
    const r = req;
    deadline = setTimeout(() => {
      finish({ status: null, error: `receiver did not answer within ${timeoutMs} ms` });
      r.destroy();
    }, timeoutMs);
    req.on('error', (e) => finish({ status: null, error: e.message }));
    req.end(body);
  });
}

export class Deliverer {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<string>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly state: SandboxState,
    private readonly timeoutMs: number,
    private readonly persist: () => void,
  ) {}

  /** Records an event for the configured webhook and starts its first attempt. */
  emit(event: string, data: Record<string, unknown>, test = false): DeliveryRecord | undefined {
    const hook = this.state.webhook;
    if (!hook.enabled || !hook.url) return undefined;
    const now = this.clock.now();
    // One id for the delivery: the log's `id` is also the payload's, so the log, the test event's
    // answer and a receiver name it alike; X-Service-Delivery is each attempt's own.
    const id = `dlv_${randomHex(12)}`;
    const payload = JSON.stringify({ id, event, occurredAt: new Date(now).toISOString(), data, ...(test ? { test: true } : {}) });
    const d: DeliveryRecord = {
      id,
      seq: this.state.nextDeliverySeq++,
      eventId: id,
      event,
      url: hook.url,
      status: 'PENDING',
      attempts: 0,
      maxAttempts: MAX_ATTEMPTS,
      responseStatus: null,
      lastError: null,
      nextAttemptAt: now,
      createdAt: now,
      deliveredAt: null,
      payload,
      test,
    };
    this.state.deliveries.push(d);
    this.schedule(d);
    return d;
  }

  /** (Re)arms the timers of every pending delivery: after a restart or a clock advance. */
  recheck(): void {
    for (const d of this.state.deliveries) if (d.status === 'PENDING') this.schedule(d);
  }

  /** Resolves when no attempt is running or due right now (tests and shutdown). */
  async idle(): Promise<void> {
    const busy = () =>
      this.inFlight.size > 0 ||
      (!this.closed &&
        this.state.deliveries.some((d) => d.status === 'PENDING' && d.nextAttemptAt !== null && d.nextAttemptAt <= this.clock.now()));
    while (busy()) await new Promise((r) => setTimeout(r, 5));
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private schedule(d: DeliveryRecord): void {
    if (this.closed || this.inFlight.has(d.id) || d.nextAttemptAt === null) return;
    const old = this.timers.get(d.id);
    if (old) clearTimeout(old);
    const delay = Math.min(this.clock.realDelayUntil(d.nextAttemptAt), 2 ** 31 - 1);
    const t = setTimeout(() => {
      this.timers.delete(d.id);
      // A timer may fire a hair early on a scaled clock; wait for sandbox time to catch up.
      if (d.nextAttemptAt !== null && this.clock.now() + 1 < d.nextAttemptAt) this.schedule(d);
      else void this.attempt(d);
    }, delay);
    t.unref();
    this.timers.set(d.id, t);
  }

  private async attempt(d: DeliveryRecord): Promise<void> {
    if (this.closed || d.status !== 'PENDING' || this.inFlight.has(d.id)) return;
    const hook = this.state.webhook;
    if (!hook.enabled || !hook.secret) {
      this.finish(d, 'FAILED', null, 'webhook disabled before delivery');
      return;
    }
    this.inFlight.add(d.id);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'reseller-sandbox-webhooks/1.0',
      'x-service-event': d.event,
      'x-service-delivery': randomUUID(),
      // Send time in real unix seconds, whatever --time-scale or /_sandbox/advance did to the
      // sandbox clock: receivers compare it with their own clock to refuse replays. The
      // payload's occurredAt stays in sandbox time.
      'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-service-signature': signBody(hook.secret, d.payload),
    };
    const r = await post(d.url, d.payload, headers, this.timeoutMs);
    this.inFlight.delete(d.id);
    if (this.closed) return;
    d.attempts += 1;
    d.responseStatus = r.status;
    if (r.status !== null && r.status >= 200 && r.status < 300) {
      this.finish(d, 'DELIVERED', this.clock.now(), null);
      return;
    }
    d.lastError = r.error ?? `receiver answered HTTP ${r.status}`;
    if (d.attempts >= d.maxAttempts) {
      this.finish(d, 'FAILED', null, d.lastError);
      return;
    }
    d.nextAttemptAt = this.clock.atMost(this.clock.now() + RETRY_DELAYS_SECONDS[d.attempts - 1]! * 1000);
    this.persist();
    this.schedule(d);
  }

  private finish(d: DeliveryRecord, status: 'DELIVERED' | 'FAILED', deliveredAt: number | null, error: string | null): void {
    d.status = status;
    d.deliveredAt = deliveredAt;
    d.lastError = error;
    d.nextAttemptAt = null;
    this.persist();
  }
}
