// What `units check` (and the agent's check_units) checks against: the target URL, and the CA
// certificates an https target may be trusted by beside Node's own (--ca-cert). Both are checked
// here, exit 2 before any connection. Which target a profile uses is the context's
// (src/context/check-target.ts): it reads the profile and the credentials.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

/** An http(s) URL, or exit 2 naming where it came from. */
export function parseTargetUrl(raw: string, where: string): URL {
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) {
    throw new UsageError(`${where} must be an http:// or https:// URL without credentials, got "${raw}"`);
  }
  return u;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The certificates of a --ca-cert PEM file, each one checked, or exit 2 before any request. */
export async function readCaCert(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --ca-cert ${path}: ${(err as Error).message}`);
  }
  const pems = text.match(PEM_CERTIFICATE) ?? [];
  if (pems.length === 0) throw new UsageError(`--ca-cert ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  const { X509Certificate } = await import('node:crypto');
  for (const [i, pem] of pems.entries()) {
    try {
      new X509Certificate(pem);
    } catch (err) {
      const which = pems.length > 1 ? ` (certificate ${i + 1} of ${pems.length})` : '';
      throw new UsageError(`--ca-cert ${path}${which}: not a valid certificate (${(err as Error).message})`);
    }
  }
  return pems;
}

/**
 * What --ca-cert adds to Node's trust, with NODE_EXTRA_CA_CERTS's certificates beside it: a Node
 * without tls.getCACertificates (20) cannot say which extra CAs it loaded, and the file's are kept
 * so a corporate CA is not dropped by adding another (Node itself warns of an unreadable file).
 */
export async function trustedExtras(path: string, env: NodeJS.ProcessEnv | Record<string, string | undefined>): Promise<string[]> {
  const own = await readCaCert(path);
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (!extra) return own;
  const text = await readFile(extra, 'utf8').catch(() => '');
  return [...own, ...(text.match(PEM_CERTIFICATE) ?? [])];
}
