// Idempotency keys for purchases. A create is only safe to retry if every attempt of the same
// purchase carries the same key, and a re-run of the same command must produce the same keys, so
// keys are derived (never random per attempt) from one base key chosen before the first request.
//
// The scheme, for base key K (from --idempotency-key, or random once per run):
//
//   key(K, i, g) = UUIDv5-style hash of K with the name "unit:<i>:<g>"
//
//   i = the item's position in the batch (0-based), g = its "generation" (starts at 0).
//
// Every retry of item i (connection reset, timeout, 409 in flight, 429, other 5xx) reuses the
// same key, so the server either replays the purchase it already made or makes it once.
// The generation only moves on when the server *replays a failure* under the current key: a
// 503 upstream_unreachable (refunded, nothing bought) that comes back with the same request id
// as one we already saw for that key. A server that remembers failures would replay it forever,
// so the next attempt needs a fresh key; a server that forgets failures answers a fresh attempt
// to the same key instead, and we stay on it. Because the walk is deterministic, re-running the
// command with the same K walks the same chain: every replayed failure steps forward, the first
// replayed success is returned as it is, and nothing is bought twice. The generation reached is
// kept in the config-dir cache (create-safely.ts), so a re-run starts where the last run stopped
// rather than spending its retry allowance on the failures that run already saw replayed.
import { createHash, randomUUID } from 'node:crypto';

export function newBaseKey(): string {
  return randomUUID();
}

/** Deterministic RFC 4122 version-5-shaped UUID from a base UUID, an item index and a generation. */
export function deriveIdempotencyKey(base: string, index: number, generation = 0): string {
  const ns = Buffer.from(base.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(`unit:${index}:${generation}`).digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
