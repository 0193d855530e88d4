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
// The generation moves on when an attempt ends in a refunded failure (503 upstream_unreachable):
// nothing was bought under that key, and a server that stores failures would replay it for the
// key's window, so the next attempt takes the next key. The generation reached is kept in the
// config-dir cache (create-safely.ts) before that attempt is sent, so a re-run starts on the first
// key not yet refused; a run without that record (another machine) walks the chain again, each
// replayed failure (`Idempotent-Replayed: true`) stepping forward at no cost, each replayed
// success returned as it is. Because the walk is deterministic, nothing is bought twice.
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
