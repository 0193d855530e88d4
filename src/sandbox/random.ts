// Deterministic pseudo-randomness: the catalogue and the generated usage/uptime figures come from
// a seed so two sandboxes started with the same flags agree, and tests can assert exact values.
import { randomBytes } from 'node:crypto';

/** mulberry32: tiny, fast, good enough for fake data. Returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable float in [0, 1) for a string key (FNV-1a, then one mulberry round). */
export function hashUnit(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return seededRandom(h)();
}

const ALNUM = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function randomToken(length: number, alphabet = ALNUM): string {
  const bytes = randomBytes(length);
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[bytes[i]! % alphabet.length];
  return s;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
