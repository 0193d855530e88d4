// Client-side validation of unit flags. Everything here runs before any request: a bad flag is a
// UsageError (exit 2) with a message that says what to type instead.
import { isIPv4 } from 'node:net';
import { UsageError } from '../errors.js';
import { PERIODS, PROTOCOLS, type Period, type Protocol } from '../api/enums.js';

export { PERIODS, PROTOCOLS, type Period, type Protocol };

export const MAX_COUNT = 500;
export const MAX_PAGE_SIZE = 200;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parsePeriod(raw: unknown): Period {
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if ((PERIODS as readonly string[]).includes(v)) return v as Period;
  throw new UsageError(`invalid period "${String(raw ?? '')}" (use one of: ${PERIODS.join(', ')})`);
}

/** `inject` is the prose name of the no-auth protocol; the wire value is always `http_noauth`. */
export function parseProtocol(raw: unknown): Protocol {
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (v === 'inject') return 'http_noauth';
  if ((PROTOCOLS as readonly string[]).includes(v)) return v as Protocol;
  throw new UsageError(`invalid protocol "${String(raw ?? '')}" (use one of: socks5, http, http_noauth, inject)`);
}

export function parseIPv4(raw: string): string {
  const v = raw.trim();
  if (!isIPv4(v)) throw new UsageError(`--allow-ip needs an IPv4 address like 203.0.113.7, got "${raw}"`);
  return v;
}

export function normaliseAllowIps(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((v) => parseIPv4(String(v)));
}

/**
 * The no-auth protocol is whitelisted by exactly one client IP at creation and on
 * change-protocol; the other protocols take no whitelist there.
 */
export function checkAllowIpsFor(protocol: Protocol, ips: string[], where: string): string[] | undefined {
  if (protocol === 'http_noauth') {
    if (ips.length !== 1) {
      throw new UsageError(
        `${where} with http_noauth needs exactly one --allow-ip IPv4 (got ${ips.length}); add more later with proxyctl units modify`,
      );
    }
    return ips;
  }
  if (ips.length > 0) throw new UsageError(`--allow-ip applies only to the http_noauth (inject) protocol`);
  return undefined;
}

export interface CredentialsInput {
  username: string;
  password: string;
}

export function parseCredentials(username: unknown, password: unknown): CredentialsInput | undefined {
  const u = typeof username === 'string' ? username : undefined;
  const p = typeof password === 'string' ? password : undefined;
  if (u === undefined && p === undefined) return undefined;
  if (u === undefined || p === undefined) throw new UsageError('--username and --password go together: give both or neither');
  return { username: parseCredential(u, '--username'), password: parseCredential(p, '--password') };
}

/** A username or password as a connection string can carry it. */
export function parseCredential(v: string, flag: '--username' | '--password'): string {
  if (v === '' || /[\s:@]/.test(v))
    throw new UsageError(`${flag} must be non-empty and contain no spaces, ":" or "@" (they would break the connection string)`);
  return v;
}

export function parseIdempotencyKey(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const v = String(raw).trim();
  if (!UUID_RE.test(v))
    throw new UsageError(
      `--idempotency-key must be a UUID like 3f2b8c1e-9d4a-4c7e-8b21-5a6f0e9d1c34 (e.g. from uuidgen), got "${String(raw)}"`,
    );
  return v.toLowerCase();
}

/** The spec's unit reference, `PRX-{n}`: typed in any case, it is sent as the API writes it. */
const REF_SHAPE = /^prx-\d+$/i;
/** Longer than any reference: a longer one is refused before it reaches a URL. */
export const MAX_REF_LENGTH = 64;

/**
 * A unit reference as people (and agents) type it: trimmed, `prx-12` read as PRX-12 (as a pool id
 * `us-12` is US-12); one with spaces, `/`, `?`, `#` or control characters, or longer than any
 * reference, is exit 2 before any request. A ref of another shape is only trimmed.
 */
export function parseRef(raw: unknown): string {
  const v = typeof raw === 'string' ? raw.trim() : '';
  if (v.length > MAX_REF_LENGTH)
    throw new UsageError(`invalid unit reference "${v.slice(0, 16)}…" (${v.length} characters; expected e.g. PRX-123)`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (v === '' || /[\s/?#\u0000-\u001f\u007f]/.test(v))
    throw new UsageError(`invalid unit reference "${String(raw ?? '')}" (expected e.g. PRX-123)`);
  return REF_SHAPE.test(v) ? v.toUpperCase() : v;
}

/** Several refs, de-duplicated in order: extending one unit twice by accident would charge twice. */
export function parseRefs(raw: unknown): string[] {
  const list = (Array.isArray(raw) ? raw : [raw]).map(parseRef);
  if (list.length === 0) throw new UsageError('give at least one unit reference (e.g. PRX-123)');
  return [...new Set(list)];
}

/** The refs that appear more than once (after trimming), in order of first appearance. */
export function duplicateRefs(raw: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const r of raw) {
    const t = typeof r === 'string' ? r.trim() : String(r);
    const v = REF_SHAPE.test(t) ? t.toUpperCase() : t;
    if (seen.has(v)) dupes.add(v);
    seen.add(v);
  }
  return [...dupes];
}

export const UNIT_STATUSES = ['ACTIVE', 'EXPIRED', 'RELEASED'] as const;

export function parseStatus(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const v = String(raw).trim().toUpperCase();
  if (!(UNIT_STATUSES as readonly string[]).includes(v))
    throw new UsageError(`--status must be one of ${UNIT_STATUSES.join(', ')}, got "${String(raw)}"`);
  return v;
}
