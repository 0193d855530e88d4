// The local webhook receiver behind `proxyctl webhook listen`. Each POST is verified against its
// raw bytes before anything parses it; valid deliveries are answered at once (the service allows
// 5 seconds), then optionally relayed byte for byte to --forward-to and reported.
import { setTimeout as delay } from 'node:timers/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Verification, verifySignature } from './signature.js';
import { deliveryKey } from './dedupe.js';
import type { EventPayload } from './events.js';

const MAX_BODY_BYTES = 1024 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;
/** Event ids remembered for recognising redeliveries; the oldest are forgotten first. */
const MAX_REMEMBERED = 10_000;

export interface ForwardResult {
  url: string;
  status?: number;
  error?: string;
  ms: number;
}

export interface ReceivedDelivery {
  type: 'delivery';
  receivedAt: string;
  event: string | undefined;
  /** The delivery's own id, the `id` inside the payload: the same on every attempt, and the `id` the delivery log shows. */
  deliveryId: string | undefined;
  /** The same value as deliveryId, under its earlier name. */
  eventId: string | undefined;
  /** X-Service-Delivery: this attempt's id, new on every attempt. */
  attemptId: string | undefined;
  timestamp: string | undefined;
  /** Which --secret matched (0-based), useful while rotating. */
  secretIndex: number;
  /** 1 for the first time this event is seen, 2 for its first redelivery, … */
  seen: number;
  redelivery: boolean;
  test: boolean;
  status: number;
  payload: EventPayload | undefined;
  forward?: ForwardResult;
}

export interface RejectedDelivery {
  type: 'rejected';
  receivedAt: string;
  event: string | undefined;
  /** X-Service-Delivery: the attempt's id (a rejected body is not read, so the delivery's id is unknown). */
  attemptId: string | undefined;
  reason: 'missing signature' | 'malformed signature' | 'signature mismatch' | 'body is not JSON' | 'body too large' | 'method not allowed';
  status: number;
}

export type ReceiverRecord = ReceivedDelivery | RejectedDelivery;

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Read on every request, so a refresh is seen at once. */
  secrets: () => readonly string[];
  /**
   * Called once when a signature does not match, before answering 400: a secret fetched from the
   * API may have been rotated by `webhook set` after the receiver started. True when it changed.
   */
  refreshSecrets?: (() => Promise<boolean>) | undefined;
  forwardTo?: string | undefined;
  onRecord(record: ReceiverRecord): void;
  now?: () => Date;
  /** Called for each verified delivery once its 200 has been sent, with the body's exact bytes. */
  onAnswered?: ((record: ReceivedDelivery, body: Buffer) => void) | undefined;
}

/**
 * The sender allows 5 s for the answer; re-reading a rotated secret may take at most this long
 * before the delivery is answered 400 (the read goes on, so the retry verifies with the new one).
 */
const REFRESH_BUDGET_MS = 2000;

function refreshWithin(refresh: () => Promise<boolean>, ms: number): Promise<boolean> {
  return Promise.race([refresh().catch(() => false), delay(ms, false, { ref: false })]);
}

export interface Receiver {
  url: string;
  port: number;
  /** Stops accepting, waits briefly for relays in flight, then closes every connection. */
  close(): Promise<void>;
}

/** Headers relayed to --forward-to: the signed delivery's own, nothing of ours. */
function relayHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'content-type' || name.startsWith('x-service-')) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function forwardDelivery(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  now: () => number = Date.now,
): Promise<ForwardResult> {
  const started = now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      body: new Uint8Array(body),
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { url, status: res.status, ms: now() - started };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { url, error: reason, ms: now() - started };
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const now = opts.now ?? (() => new Date());
  const seen = new Map<string, number>();
  /** Relays still running, each with what reports its delivery if the receiver stops first. */
  const inFlight = new Map<Promise<unknown>, () => void>();

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer, tooLarge: boolean) => {
    const receivedAt = now().toISOString();
    const reject = (status: number, reason: RejectedDelivery['reason']) => {
      answer(res, status, { error: reason });
      const event = header(req, 'x-service-event');
      opts.onRecord({ type: 'rejected', receivedAt, event, attemptId: header(req, 'x-service-delivery'), reason, status });
    };
    if (req.method !== 'POST') return reject(405, 'method not allowed');
    if (tooLarge) return reject(413, 'body too large');
    const v = await verifyDelivery(req, body, opts);
    if (!v.ok) return reject(400, REJECTED_SIGNATURE[v.reason]);
    // Only a verified body is parsed.
    const payload = parsePayload(body);
    if (!payload) return reject(400, 'body is not JSON');
    const deliveryId = typeof payload.id === 'string' ? payload.id : undefined;
    const count = noteSeen(seen, deliveryKey(deliveryId, body));
    answer(res, 200, { received: true });
    const record = deliveryRecord(req, receivedAt, payload, v.secretIndex, count);
    const onAnswered = opts.onAnswered;
    if (onAnswered) afterAnswer(res, () => onAnswered(record, body));
    if (!opts.forwardTo) return opts.onRecord(record);
    relay(opts.forwardTo, req, body, inFlight, (forward) => opts.onRecord({ ...record, forward }));
  };

  const server = createServer((req, res) => readBody(req, res, handle));
  server.keepAliveTimeout = 5_000;
  await listen(server, opts.port, opts.host);
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}/`,
    port,
    close: () => stop(server, inFlight),
  };
}

/** The request's body, up to MAX_BODY_BYTES (beyond it, only that it was too large), then `handle`. */
function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (req: IncomingMessage, res: ServerResponse, body: Buffer, tooLarge: boolean) => Promise<void>,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(c);
  });
  req.on('end', () => {
    handle(req, res, Buffer.concat(chunks), tooLarge).catch(() => {
      if (!res.headersSent) answer(res, 500, { error: 'receiver error' });
    });
  });
  req.on('error', () => res.destroy());
}

const REJECTED_SIGNATURE = {
  missing: 'missing signature',
  malformed: 'malformed signature',
  mismatch: 'signature mismatch',
} as const satisfies Record<string, RejectedDelivery['reason']>;

/** The signature checked against the raw bytes; on a mismatch, once more after the secrets are re-read. */
async function verifyDelivery(req: IncomingMessage, body: Buffer, opts: ReceiverOptions): Promise<Verification> {
  const signature = header(req, 'x-service-signature');
  const v = verifySignature(body, signature, opts.secrets());
  if (!v.ok && v.reason === 'mismatch' && opts.refreshSecrets && (await refreshWithin(opts.refreshSecrets, REFRESH_BUDGET_MS))) {
    return verifySignature(body, signature, opts.secrets());
  }
  return v;
}

/** A verified body as the event it carries: a JSON object, else undefined. */
function parsePayload(body: Buffer): EventPayload | undefined {
  try {
    const payload = JSON.parse(body.toString('utf8')) as EventPayload;
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/** How often the delivery under `key` has now been seen (1 the first time); the least recent is forgotten past MAX_REMEMBERED. */
function noteSeen(seen: Map<string, number>, key: string): number {
  const count = (seen.get(key) ?? 0) + 1;
  seen.delete(key);
  seen.set(key, count);
  if (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value as string);
  return count;
}

function deliveryRecord(
  req: IncomingMessage,
  receivedAt: string,
  payload: EventPayload,
  secretIndex: number,
  count: number,
): ReceivedDelivery {
  const deliveryId = typeof payload.id === 'string' ? payload.id : undefined;
  return {
    type: 'delivery',
    receivedAt,
    event: payload.event ?? header(req, 'x-service-event'),
    deliveryId,
    eventId: deliveryId,
    attemptId: header(req, 'x-service-delivery'),
    timestamp: header(req, 'x-service-timestamp'),
    secretIndex,
    seen: count,
    redelivery: count > 1,
    test: payload.test === true,
    status: 200,
    payload,
  };
}

/** Runs `fn` once the answer has been sent in full (the response's finish). */
function afterAnswer(res: ServerResponse, fn: () => void): void {
  if (res.writableFinished) fn();
  else res.once('finish', fn);
}

/**
 * Relays the delivery to --forward-to. The delivery is reported exactly once: with the relay's
 * outcome, or, when the receiver stops while the relay is still running, as interrupted (it was
 * acknowledged, so it must not vanish).
 */
function relay(
  forwardTo: string,
  req: IncomingMessage,
  body: Buffer,
  inFlight: Map<Promise<unknown>, () => void>,
  onForwarded: (forward: ForwardResult) => void,
): void {
  const started = Date.now();
  let reported = false;
  const report = (forward: ForwardResult) => {
    if (reported) return;
    reported = true;
    onForwarded(forward);
  };
  const p = forwardDelivery(forwardTo, body, relayHeaders(req)).then(report);
  inFlight.set(p, () => report({ url: forwardTo, error: 'receiver stopped before the relay answered', ms: Date.now() - started }));
  void p.finally(() => inFlight.delete(p));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops accepting, waits up to 2 s for relays in flight (those still running are reported interrupted), then closes every connection. */
async function stop(server: Server, inFlight: Map<Promise<unknown>, () => void>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await Promise.race([Promise.allSettled([...inFlight.keys()]), new Promise((r) => setTimeout(r, 2_000).unref())]);
  for (const abandon of inFlight.values()) abandon();
  inFlight.clear();
  server.closeAllConnections();
  await closed;
}
