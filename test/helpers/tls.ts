// Certificates made for the test by `openssl` (node:crypto cannot make X.509 certificates), and an
// HTTPS server on 127.0.0.1:0 that answers with one of them: targets for `units check` over TLS.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';

/** A certificate and its key, as PEM text. */
export interface KeyPair {
  key: string;
  cert: string;
}

export interface TestCertificates {
  /** The test CA's certificate file (PEM), for `--ca-cert`. */
  caFile: string;
  /** Signed by the test CA for IP 127.0.0.1 and localhost: trusted only with `--ca-cert caFile`. */
  byTestCa: KeyPair;
  /** Its own issuer, for IP 127.0.0.1. */
  selfSigned: KeyPair;
  /** Signed by the test CA for 127.0.0.1, its notAfter a day before its notBefore. */
  expired: KeyPair;
  /** Signed by the test CA for other.example only. */
  otherHost: KeyPair;
}

export async function hasOpenssl(): Promise<boolean> {
  return (await execa('openssl', ['version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
}

const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** Writes a CA and four server certificates into `dir` (which must exist). */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  const p = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execa('openssl', args, { cwd: dir });
  await openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '36500',
    '-subj',
    '/CN=proxyctl test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  await openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '36500',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  );
  const signed = async (name: string, san: string, days: string): Promise<KeyPair> => {
    await openssl('req', '-new', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    writeFileSync(p(`${name}.ext`), `subjectAltName=${san}\n`);
    await openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      String(Date.now()),
      '-out',
      `${name}.pem`,
      '-days',
      days,
      '-extfile',
      `${name}.ext`,
    );
    return { key: readFileSync(p(`${name}.key`), 'utf8'), cert: readFileSync(p(`${name}.pem`), 'utf8') };
  };
  return {
    caFile: p('ca.pem'),
    byTestCa: await signed('leaf', 'IP:127.0.0.1,DNS:localhost', '36500'),
    selfSigned: { key: readFileSync(p('self.key'), 'utf8'), cert: readFileSync(p('self.pem'), 'utf8') },
    // OpenSSL 3.0 takes a negative -days: notAfter = notBefore - 1 day, so the certificate has expired.
    expired: await signed('expired', 'IP:127.0.0.1', '-1'),
    otherHost: await signed('other', 'DNS:other.example', '36500'),
  };
}

export interface HttpsTarget {
  url: string;
  /** Requests that got through the TLS handshake. */
  requests: number;
  /** TCP connections accepted, handshake or not. */
  connections: number;
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1:0 answering every request 200 `{"ok":true}`. */
export async function startHttpsTarget(pair: KeyPair): Promise<HttpsTarget> {
  const server = createServer({ key: pair.key, cert: pair.cert }, (_req, res) => {
    target.requests += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  // A failed handshake is the test's point, not the server's fault.
  server.on('tlsClientError', () => undefined);
  server.on('connection', () => {
    target.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const target: HttpsTarget = {
    url: `https://127.0.0.1:${port}/`,
    requests: 0,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return target;
}
