// TLS facts shared by the API transport and `units check`'s probe: what a failed TLS connection
// means in words (the raw OpenSSL text helps nobody), and the server name to send. It does not load
// node:tls: the transport's undici loads it only for an https URL.
import { isIP } from 'node:net';

/** TLS failures, in words, by the error's code. */
const TLS_PROBLEMS: Readonly<Record<string, string>> = {
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server does not speak https on this port (is it plain http?)',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the server does not speak https on this port (is it plain http?)',
  EPROTO: 'the TLS handshake failed (is the server plain http?)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate issuer is not trusted here',
  UNABLE_TO_GET_ISSUER_CERT: 'its certificate issuer is not trusted here',
  CERT_UNTRUSTED: 'its certificate is not trusted here',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  CERT_SIGNATURE_FAILURE: 'its certificate signature does not verify',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another host name',
};

/**
 * The words for a failed TLS connection, or undefined when the code is not TLS's: the table's, else
 * OpenSSL's own for any other `ERR_SSL_*`/`ERR_TLS_*` code (a handshake alert, an old protocol).
 */
export function tlsProblem(code: string | undefined, message: string): string | undefined {
  if (code === undefined) return undefined;
  const known = TLS_PROBLEMS[code];
  if (known) return known;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return `the TLS handshake failed: ${message}`;
  return undefined;
}

/**
 * The SNI server name for a host: none for an IP address, which RFC 6066 does not allow there (Node
 * warns, DEP0123). The certificate is still checked against the address.
 */
export function serverName(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) === 0 ? bare : undefined;
}
