import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matchSignature, parseSignatureArg, parseSignatureHeader, signBody, verifySignature } from '../../src/webhooks/signature.js';
import { UsageError } from '../../src/errors.js';
import { signature } from '../helpers/index.js';

// Computed with node:crypto (here and in the test helpers' signature()), independently of the helper under test.
const BODY = '{"id":"evt_1","event":"unit.created","occurredAt":"2026-01-01T00:00:00.000Z","data":{"proxyRef":"PRX-1"}}';

describe('webhook signatures', () => {
  it('signBody matches an independent HMAC-SHA256 of the raw body', () => {
    expect(signBody(BODY, 'whsec_a')).toBe(signature(BODY, 'whsec_a'));
    expect(signBody(Buffer.from(BODY), 'whsec_a')).toBe(signature(BODY, 'whsec_a'));
  });

  it('accepts the right secret and says which one matched', () => {
    const sig = signature(BODY, 'new');
    expect(verifySignature(BODY, sig, ['new'])).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(BODY, sig, ['old', 'new'])).toEqual({ ok: true, secretIndex: 1 });
  });

  it('rejects a wrong secret, a changed body and a re-serialised body', () => {
    const sig = signature(BODY, 'right');
    expect(verifySignature(BODY, sig, ['wrong'])).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(`${BODY}\n`, sig, ['right'])).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(JSON.stringify(JSON.parse(BODY), null, 1), sig, ['right'])).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('tells a missing header from a malformed one', () => {
    expect(verifySignature(BODY, undefined, ['s'])).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignature(BODY, '  ', ['s'])).toEqual({ ok: false, reason: 'missing' });
    for (const bad of [
      'sha256=',
      'sha256=abc',
      `sha1=${'a'.repeat(64)}`,
      `sha256=${'A'.repeat(64)}`,
      `sha256=${'g'.repeat(64)}`,
      'a'.repeat(64),
      `sha256=${'a'.repeat(66)}`,
    ]) {
      expect(verifySignature(BODY, bad, ['s'])).toEqual({ ok: false, reason: 'malformed' });
      expect(parseSignatureHeader(bad)).toBeUndefined();
    }
  });

  it('parses a well-formed header to its 32 digest bytes', () => {
    const sig = signature(BODY, 's');
    expect(parseSignatureHeader(sig)).toEqual(createHmac('sha256', 's').update(BODY).digest());
    expect(parseSignatureHeader(` ${sig} `)?.length).toBe(32);
  });

  it('a malformed command-line signature is a usage error (exit 2)', () => {
    expect(() => parseSignatureArg('sha256=nothex')).toThrow(UsageError);
    expect(() => parseSignatureArg('sha256=nothex')).toThrow(/malformed signature/);
  });

  it('a digest of another length never matches (length checked before timingSafeEqual)', () => {
    expect(matchSignature(BODY, Buffer.alloc(16), ['s'])).toBe(-1);
    expect(matchSignature(BODY, Buffer.alloc(0), ['s'])).toBe(-1);
  });

  it('binary bodies are signed as bytes', () => {
    const bytes = Buffer.from([0xff, 0x00, 0xfe, 0x7b]);
    expect(verifySignature(bytes, signature(bytes, 'k'), ['k'])).toEqual({ ok: true, secretIndex: 0 });
  });
});
