// Webhook signatures: `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256(raw body, secret)>`.
// Everything here works on the raw bytes as received; re-serialising parsed JSON would change them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UsageError } from '../errors.js';

export const SIGNATURE_PREFIX = 'sha256=';
const SIGNATURE_SHAPE = /^sha256=([0-9a-f]{64})$/;

export type RawBody = Uint8Array | string;

/** The header value the service would send for this body and secret. */
export function signBody(body: RawBody, secret: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(body).digest('hex');
}

/** The 32 digest bytes of a well-formed header value, or undefined when it is malformed. */
export function parseSignatureHeader(value: string | undefined): Buffer | undefined {
  const m = SIGNATURE_SHAPE.exec((value ?? '').trim());
  return m ? Buffer.from(m[1]!, 'hex') : undefined;
}

/** As parseSignatureHeader, for command-line input: a malformed value is a usage error (exit 2). */
export function parseSignatureArg(value: string): Buffer {
  const digest = parseSignatureHeader(value);
  if (!digest) {
    throw new UsageError(`malformed signature "${truncate(value)}"`, {
      code: 'signature_malformed',
      hint: "expected 'sha256=' followed by 64 lowercase hex digits, as in the X-Service-Signature header",
    });
  }
  return digest;
}

/**
 * Index of the first secret whose HMAC of `body` equals `digest`, or -1. Several secrets allow a
 * rotation window. Lengths are compared before timingSafeEqual (which throws on a mismatch), and
 * every secret is tried so the time taken does not say which one matched.
 */
export function matchSignature(body: RawBody, digest: Uint8Array, secrets: readonly string[]): number {
  let matched = -1;
  secrets.forEach((secret, i) => {
    const expected = createHmac('sha256', secret).update(body).digest();
    if (expected.length !== digest.length) return;
    if (timingSafeEqual(expected, digest) && matched === -1) matched = i;
  });
  return matched;
}

export type Verification = { ok: true; secretIndex: number } | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' };

/** Verifies a header value against the raw body: the receiver's single decision. */
export function verifySignature(body: RawBody, header: string | undefined, secrets: readonly string[]): Verification {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  const digest = parseSignatureHeader(header);
  if (!digest) return { ok: false, reason: 'malformed' };
  const i = matchSignature(body, digest, secrets);
  return i >= 0 ? { ok: true, secretIndex: i } : { ok: false, reason: 'mismatch' };
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
