// What `units check` (and the agent's check_units) checks against: the target URL, and the CA
// certificates an https target may be trusted by beside Node's own (--ca-cert). Both are checked
// here, exit 2 before any connection. Which target a profile uses is the context's
// (src/context/check-target.ts): it reads the profile and the credentials.
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
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

/** The certificates in PEM text, each checked; or why it is not that, as `what${why}` reads. */
async function checkPems(text: string): Promise<{ pems: string[] } | { why: string }> {
  const pems = text.match(PEM_CERTIFICATE) ?? [];
  if (pems.length === 0) return { why: ' holds no PEM certificate (-----BEGIN CERTIFICATE-----)' };
  const { X509Certificate } = await import('node:crypto');
  for (const [i, pem] of pems.entries()) {
    try {
      new X509Certificate(pem);
    } catch (err) {
      const which = pems.length > 1 ? ` (certificate ${i + 1} of ${pems.length})` : '';
      return { why: `${which}: not a valid certificate (${(err as Error).message})` };
    }
  }
  return { pems };
}

/** The certificates of a --ca-cert PEM file, each one checked, or exit 2 before any request. */
export async function readCaCert(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --ca-cert ${path}: ${(err as Error).message}`);
  }
  const checked = await checkPems(text);
  if ('why' in checked) throw new UsageError(`--ca-cert ${path}${checked.why}`);
  return checked.pems;
}

/** The most CA certificates an agent may give, as text or as a file: far more than any bundle of CAs. */
export const MAX_CA_BYTES = 1024 * 1024;

/**
 * A CA file an agent names, read only if it is a regular file of at most MAX_CA_BYTES: never a
 * FIFO, a device or the server's own stdin (opened without blocking, then checked on the open
 * handle, so what is checked is what is read). Undefined for anything else, whatever the reason.
 */
async function readRegularFile(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const st = await handle.stat();
    if (!st.isFile() || st.size > MAX_CA_BYTES) return undefined;
    const buf = Buffer.alloc(MAX_CA_BYTES + 1);
    let read = 0;
    while (read < buf.length) {
      const { bytesRead } = await handle.read(buf, read, buf.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    // Grown past the bound since the stat: as unusable as a file that was too big.
    return read > MAX_CA_BYTES ? undefined : buf.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The CA certificates an agent gives check_units: PEM text (`pem`), or a file on this machine
 * (`file`). A file that is missing, unreadable, not a regular file, too big or not certificates
 * gets one answer, so the answer tells nothing about what is on the disk. Exit 2 before any
 * connection.
 */
export async function agentCaCerts(given: { pem?: string | undefined; file?: string | undefined }): Promise<string[] | undefined> {
  if (given.pem !== undefined && given.file !== undefined) throw new UsageError('give caCert (PEM text) or caCertFile, not both');
  if (given.pem !== undefined) {
    const checked = given.pem.length > MAX_CA_BYTES ? { why: ` is longer than ${MAX_CA_BYTES} characters` } : await checkPems(given.pem);
    if ('why' in checked) throw new UsageError(`caCert${checked.why}`, { hint: 'caCert takes PEM text: -----BEGIN CERTIFICATE----- …' });
    return checked.pems;
  }
  if (given.file === undefined) return undefined;
  const text = await readRegularFile(given.file);
  const checked = text === undefined ? undefined : await checkPems(text);
  if (!checked || 'why' in checked)
    throw new UsageError(`caCertFile ${JSON.stringify(given.file)} is not usable`, {
      hint: `name a readable regular file of at most ${MAX_CA_BYTES / 1024 / 1024} MiB of PEM CA certificates, or pass them as text in caCert`,
    });
  return checked.pems;
}

/**
 * What --ca-cert adds to Node's trust, with NODE_EXTRA_CA_CERTS's certificates beside it: a Node
 * without tls.getCACertificates (20) cannot say which extra CAs it loaded, and the file's are kept
 * so a corporate CA is not dropped by adding another (Node itself warns of an unreadable file).
 */
export async function trustedExtras(path: string, env: NodeJS.ProcessEnv | Record<string, string | undefined>): Promise<string[]> {
  return withEnvExtras(await readCaCert(path), env);
}

/** `own` and NODE_EXTRA_CA_CERTS's certificates (the operator's file, read as Node reads it). */
export async function withEnvExtras(own: string[], env: NodeJS.ProcessEnv | Record<string, string | undefined>): Promise<string[]> {
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (!extra) return own;
  const text = await readFile(extra, 'utf8').catch(() => '');
  return [...own, ...(text.match(PEM_CERTIFICATE) ?? [])];
}
