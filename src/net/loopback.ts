// Loopback addresses: where plain http may carry the API key (src/api), and where a refused
// connection most likely means a local sandbox that is not running (./transport.ts).
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** A URL's hostname (IPv6 in brackets or not) that names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * How to start a sandbox where `url` points: `proxyctl sandbox` with --host and --port only when
 * they differ from its defaults (127.0.0.1:8787). Undefined when the URL is not plain http on loopback.
 */
export function sandboxCommandFor(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  // The sandbox serves plain http only: for an https URL, starting one would not help.
  if (!isLoopbackHost(u.hostname) || u.protocol !== 'http:') return undefined;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = u.port || '80';
  const flags = [host === '127.0.0.1' || host === 'localhost' ? '' : ` --host ${host}`, port === '8787' ? '' : ` --port ${port}`];
  return `proxyctl sandbox${flags.join('')}`;
}
