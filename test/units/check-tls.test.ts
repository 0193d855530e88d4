// `units check` against https targets addressed by IP, through real sandbox proxies of both
// protocols: Node's warning about an IP as TLS server name never shows; a certificate the check
// cannot trust (self-signed, unknown CA, expired, another host's) is `tls_error`, not
// `bad_response`; the global --insecure skips the target's certificate check; --ca-cert FILE trusts
// another CA, and a file that is not one is exit 2 before any request.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  makeTestCertificates,
  startHttpsTarget,
  startKit,
  type HttpsTarget,
  type Kit,
  type TestCertificates,
} from '../helpers/index.js';
import type { CheckResult } from '../../src/units/check.js';

let kit: Kit;
let certs: TestCertificates;
let refs: string[];
const targets: HttpsTarget[] = [];

beforeAll(async () => {
  kit = await startKit();
  const dir = join(kit.home.dir, 'certs');
  mkdirSync(dir);
  certs = await makeTestCertificates(dir);
  const pools = kit.sb.world.pools.filter((p) => p.available).map((p) => p.poolId);
  refs = [];
  for (const [i, protocol] of ['socks5', 'http'].entries()) {
    const r = await call(kit.sb, 'POST', '/units', { body: { poolId: pools[i], period: '24h', protocol } });
    if (r.status !== 201) throw new Error(`buy failed: ${r.status} ${r.text}`);
    refs.push((r.body as { proxyRef: string }).proxyRef);
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
  await kit.close();
});

async function target(pair: keyof Omit<TestCertificates, 'caFile'>): Promise<HttpsTarget> {
  const t = await startHttpsTarget(certs[pair]);
  targets.push(t);
  return t;
}

async function check(args: string[]): Promise<{ code: number | undefined; results: CheckResult[]; stderr: string }> {
  const r = await kit.run(['units', 'check', ...refs, ...args, '--json']);
  const out = String(r.stdout);
  return { code: r.exitCode, results: out ? (JSON.parse(out) as CheckResult[]) : [], stderr: String(r.stderr) };
}

/** Node's DEP0123, or anything else Node warns about. */
const NODE_WARNING = /DEP0123|ServerName|Warning:/;

const failedWith = (message: RegExp) =>
  ['socks5', 'http'].map((protocol) =>
    expect.objectContaining({ protocol, ok: false, status: null, error: 'tls_error', message: expect.stringMatching(message) }),
  );
const passedBoth = ['socks5', 'http'].map((protocol) => expect.objectContaining({ protocol, ok: true, status: 200, error: null }));

describe('units check against an https target on an IP address', () => {
  it('a certificate from a CA it does not know is tls_error through both protocols, and Node warns of nothing', async () => {
    const t = await target('byTestCa');
    const r = await check(['--target', t.url]);
    expect(r.code).toBe(10);
    expect(r.results).toEqual(failedWith(/not trusted|cannot be verified/));
    expect(r.stderr).not.toMatch(NODE_WARNING);
    // The handshake was tried (the proxies reached the target), and no request went over it.
    expect(t.connections).toBe(2);
    expect(t.requests).toBe(0);
  }, 60_000);

  it('--ca-cert FILE trusts the test CA: both pass, without the warning', async () => {
    const t = await target('byTestCa');
    const r = await check(['--target', t.url, '--ca-cert', certs.caFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results).toEqual(passedBoth);
    expect(r.stderr).not.toMatch(NODE_WARNING);
    expect(t.requests).toBe(2);
  }, 60_000);

  it('self-signed, expired and another host name are tls_error, each in its own words, even with --ca-cert', async () => {
    const self = await target('selfSigned');
    const expired = await target('expired');
    const other = await target('otherHost');
    const selfR = await check(['--target', self.url]);
    expect(selfR.code).toBe(10);
    expect(selfR.results).toEqual(failedWith(/self-signed/));
    const expiredR = await check(['--target', expired.url, '--ca-cert', certs.caFile]);
    expect(expiredR.code).toBe(10);
    expect(expiredR.results).toEqual(failedWith(/expired/));
    const otherR = await check(['--target', other.url, '--ca-cert', certs.caFile]);
    expect(otherR.code).toBe(10);
    expect(otherR.results).toEqual(failedWith(/another host name/));
    for (const r of [selfR, expiredR, otherR]) expect(r.stderr).not.toMatch(NODE_WARNING);
    for (const t of [self, expired, other]) expect(t.requests).toBe(0);
  }, 60_000);

  it('--insecure skips the certificate check: self-signed, expired and other-host certificates pass', async () => {
    for (const pair of ['selfSigned', 'expired', 'otherHost'] as const) {
      const t = await target(pair);
      const r = await check(['--target', t.url, '--insecure']);
      expect(r.code, `${pair}: ${r.stderr}`).toBe(0);
      expect(r.results).toEqual(passedBoth);
      expect(r.stderr).not.toMatch(NODE_WARNING);
      // --insecure also allows plain http to the API, so turning the target's check off is said.
      expect(r.stderr).toContain(`warning: --insecure: the certificate of ${new URL(t.url).host} is not checked`);
      expect(t.requests).toBe(2);
    }
  }, 60_000);

  it('--ca-cert keeps the CAs of NODE_EXTRA_CA_CERTS trusted beside its own', async () => {
    // The test CA comes from NODE_EXTRA_CA_CERTS; --ca-cert names another certificate (the
    // self-signed one): adding it must not drop the first, on a Node that cannot list it (20) too.
    const t = await target('byTestCa');
    const other = join(kit.home.dir, 'other-ca.pem');
    writeFileSync(other, certs.selfSigned.cert);
    const r = await kit.run(['units', 'check', ...refs, '--target', t.url, '--ca-cert', other, '--json'], {
      env: { NODE_EXTRA_CA_CERTS: certs.caFile },
    });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual(passedBoth);
  }, 60_000);

  it('an unreadable or invalid --ca-cert is exit 2 before any request', async () => {
    const t = await target('byTestCa');
    const notPem = join(kit.home.dir, 'not-a-cert.pem');
    writeFileSync(notPem, 'hello\n');
    const broken = join(kit.home.dir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const before = kit.sb.requestLog().length;
    for (const [file, why] of [
      [join(kit.home.dir, 'missing.pem'), /cannot read --ca-cert .*missing\.pem/],
      [notPem, /--ca-cert .*not-a-cert\.pem holds no PEM certificate/],
      [broken, /--ca-cert .*broken\.pem: .*not a valid certificate/],
    ] as const) {
      const r = await kit.run(['units', 'check', ...refs, '--target', t.url, '--ca-cert', file]);
      expect(r.exitCode, String(r.stderr)).toBe(2);
      expect(String(r.stderr)).toMatch(why);
      expect(String(r.stdout)).toBe('');
    }
    expect(kit.sb.requestLog().length).toBe(before);
    expect(t.connections).toBe(0);
  }, 60_000);
});
