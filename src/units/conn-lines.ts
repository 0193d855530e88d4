// Connection lines as proxyctl writes them (`-o conn` and its --conn-format variants), read back
// for `units check --from-file`: a reseller checks the very list a customer received, without the
// API. Every line is parsed before any connection, and a bad one is exit 2 naming its number.
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';
import type { ProxyProtocol } from '../net/proxy-probe.js';

export interface ConnLine {
  /** 1-based line number in the file. */
  line: number;
  host: string;
  port: number;
  /** Undefined when the line does not say (a colon or `user:pass@` line with credentials). */
  protocol: ProxyProtocol | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const SCHEMES: Record<string, ProxyProtocol | 'http?'> = {
  'socks5:': 'socks5',
  'socks5h:': 'socks5',
  'socks:': 'socks5',
  'http:': 'http?',
};

const FORMATS = 'ip:port:user:pass, ip:port, user:pass@ip:port, socks5://user:pass@ip:port, http://[user:pass@]ip:port';

/**
 * Parses a whole file. `protocol` (from --protocol) is taken for lines that do not name theirs;
 * a line without credentials and without a scheme is the no-auth protocol unless told otherwise.
 */
export function parseConnLines(text: string, protocol?: ProxyProtocol): ConnLine[] {
  const out: ConnLine[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) continue;
    const parsed = parseLine(s, protocol);
    if (typeof parsed === 'string') {
      throw new UsageError(`--from-file line ${i + 1}: ${parsed}`, { hint: `each line is one of: ${FORMATS}` });
    }
    out.push({ line: i + 1, ...parsed });
  }
  return out;
}

type Parsed = Omit<ConnLine, 'line'>;

/** The parsed line, or why it is not one. */
function parseLine(s: string, given: ProxyProtocol | undefined): Parsed | string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(s);
  if (scheme) return parseUrl(s, given);
  let creds: { username: string; password: string } | undefined;
  let hostPort = s;
  const at = s.lastIndexOf('@');
  if (at >= 0) {
    const userPass = s.slice(0, at);
    hostPort = s.slice(at + 1);
    const colon = userPass.indexOf(':');
    if (colon <= 0 || colon === userPass.length - 1) return `"${s}" has no user:pass before "@"`;
    creds = { username: userPass.slice(0, colon), password: userPass.slice(colon + 1) };
  }
  const parts = hostPort.split(':');
  if (at < 0 && parts.length === 4) creds = { username: parts[2]!, password: parts[3]! };
  else if (parts.length !== 2) return `"${s}" is not a connection line`;
  const host = parts[0]!;
  const port = parsePort(parts[1]!);
  if (!validHost(host)) return `"${host}" is not an IPv4 address or host name`;
  if (port === undefined) return `"${parts[1]}" is not a port (1 to 65535)`;
  if (creds && (creds.username === '' || creds.password === '')) return `"${s}" has an empty user or password`;
  const protocol = given ?? (creds ? undefined : 'http_noauth');
  return { host, port, protocol, ...creds };
}

function parseUrl(s: string, given: ProxyProtocol | undefined): Parsed | string {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return `"${s}" is not a valid URL`;
  }
  const kind = SCHEMES[u.protocol];
  if (!kind) return `the scheme "${u.protocol.slice(0, -1)}" is not a proxy proxyctl checks (socks5 or http)`;
  if ((u.pathname !== '' && u.pathname !== '/') || u.search || u.hash) return `"${s}" has more than a proxy address`;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!u.port) return `"${s}" has no port`;
  const username = u.username ? decodeURIComponent(u.username) : undefined;
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  if ((username === undefined) !== (password === undefined)) return `"${s}" has a user without a password`;
  const protocol: ProxyProtocol = kind === 'socks5' ? 'socks5' : username !== undefined ? 'http' : 'http_noauth';
  if (given && given !== protocol && !(kind === 'http?' && given !== 'socks5')) {
    return `the line says ${protocol}, --protocol says ${given}`;
  }
  return { host, port: Number(u.port), protocol, ...(username !== undefined ? { username, password } : {}) };
}

function parsePort(raw: string): number | undefined {
  if (!/^\d{1,5}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 && n <= 65535 ? n : undefined;
}

function validHost(h: string): boolean {
  return isIP(h) === 4 || (HOSTNAME.test(h) && !/^[\d.]+$/.test(h));
}
