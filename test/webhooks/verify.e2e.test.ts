// `webhook verify` through the built binary: exit 0 valid, 11 invalid, 2 malformed; stdin and
// --payload-file; several secrets. Signatures are computed here (node:crypto, and openssl).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { proxyctl, signature, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());

const BODY = '{"id":"evt_7","event":"unit.created","occurredAt":"2026-03-01T10:00:00.000Z","data":{"proxyRef":"PRX-7","note":"é ✓"}}';
const SECRET = 'whsec_0123456789abcdef';
const file = join(home.dir, 'body.json');
writeFileSync(file, BODY);

describe('webhook verify (built binary)', () => {
  it('exit 0 for a valid signature, body from --payload-file', async () => {
    const r = await proxyctl(['webhook', 'verify', '--secret', SECRET, '--signature', signature(BODY, SECRET), '--payload-file', file], {
      home,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('valid');
  });

  it('exit 0 for a valid signature, body from stdin; --json says which secret matched', async () => {
    const r = await proxyctl(
      ['webhook', 'verify', '--secret', 'whsec_old', '--secret', SECRET, '--signature', signature(BODY, SECRET), '--json'],
      {
        home,
        input: BODY,
        stdin: 'pipe',
      },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ valid: true, secretIndex: 1, bytes: Buffer.byteLength(BODY) });
  });

  it('accepts a signature computed by openssl', async () => {
    const o = await execa('openssl', ['dgst', '-sha256', '-hmac', SECRET], { input: BODY });
    const hex = String(o.stdout).trim().split(/\s+/).pop()!;
    const r = await proxyctl(['webhook', 'verify', '--secret', SECRET, '--signature', `sha256=${hex}`, '--payload-file', file], { home });
    expect(r.exitCode).toBe(0);
  });

  it('exit 11 for a wrong secret, for every secret of a rotation list, and for a body with one byte more', async () => {
    const wrong = await proxyctl(
      ['webhook', 'verify', '--secret', 'whsec_other', '--signature', signature(BODY, SECRET), '--payload-file', file],
      { home },
    );
    expect(wrong.exitCode).toBe(11);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('signature_invalid');
    const both = await proxyctl(['webhook', 'verify', '--secret', 'a', '--secret', 'b', '--signature', signature(BODY, SECRET)], {
      home,
      input: BODY,
      stdin: 'pipe',
    });
    expect(both.exitCode).toBe(11);
    const newline = await proxyctl(['webhook', 'verify', '--secret', SECRET, '--signature', signature(BODY, SECRET)], {
      home,
      input: `${BODY}\n`,
      stdin: 'pipe',
    });
    expect(newline.exitCode).toBe(11);
  });

  it('exit 2 for an empty payload (nothing piped, or an empty file), not "invalid signature"', async () => {
    const empty = join(home.dir, 'empty.json');
    writeFileSync(empty, '');
    const piped = await proxyctl(['webhook', 'verify', '--secret', SECRET, '--signature', signature(BODY, SECRET)], {
      home,
      input: '',
      stdin: 'pipe',
    });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toMatch(/empty/);
    const fromFile = await proxyctl(
      ['webhook', 'verify', '--secret', SECRET, '--signature', signature(BODY, SECRET), '--payload-file', empty],
      { home },
    );
    expect(fromFile.exitCode).toBe(2);
    // An empty body that really was signed still verifies.
    const signedEmpty = await proxyctl(
      ['webhook', 'verify', '--secret', SECRET, '--signature', signature('', SECRET), '--payload-file', empty],
      { home },
    );
    expect(signedEmpty.exitCode).toBe(0);
  });

  it('-o json puts the error object on stderr for an invalid signature', async () => {
    const r = await proxyctl(['webhook', 'verify', '--secret', 'x', '--signature', signature(BODY, SECRET), '--json'], {
      home,
      input: BODY,
      stdin: 'pipe',
    });
    expect(r.exitCode).toBe(11);
    expect(JSON.parse(String(r.stderr)).error.code).toBe('signature_invalid');
  });

  it('exit 2 for a malformed header, a missing secret or an unreadable file', async () => {
    for (const bad of ['sha256=xyz', signature(BODY, SECRET).toUpperCase(), signature(BODY, SECRET).slice(7), 'sha1=abc']) {
      const r = await proxyctl(['webhook', 'verify', '--secret', SECRET, '--signature', bad], { home, input: BODY, stdin: 'pipe' });
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain('malformed signature');
    }
    const noSecret = await proxyctl(['webhook', 'verify', '--signature', signature(BODY, SECRET)], { home, input: BODY, stdin: 'pipe' });
    expect(noSecret.exitCode).toBe(2);
    const noFile = await proxyctl(
      ['webhook', 'verify', '--secret', SECRET, '--signature', signature(BODY, SECRET), '--payload-file', join(home.dir, 'nope')],
      { home },
    );
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toContain('ENOENT');
  });

  it('PROXYCTL_WEBHOOK_SECRET stands in for --secret', async () => {
    const r = await proxyctl(['webhook', 'verify', '--signature', signature(BODY, SECRET)], {
      home,
      input: BODY,
      stdin: 'pipe',
      env: { PROXYCTL_WEBHOOK_SECRET: SECRET },
    });
    expect(r.exitCode).toBe(0);
  });
});
