// Field validation shared by the handlers. Every failure names the field so a reseller can fix
// the request without guessing.
import { isIPv4 } from 'node:net';
import { ApiFailure, badRequest } from './http.js';
import { isPeriod, PERIODS, type Period } from './catalogue.js';

export const PROTOCOLS = ['socks5', 'http', 'http_noauth'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface Credentials {
  username: string;
  password: string;
}

export function bodyObject(body: unknown, required: boolean): Record<string, unknown> {
  if (body === undefined && !required) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function requirePeriod(v: unknown, field = 'period'): Period {
  if (v === undefined || v === null) throw badRequest(`${field} is required (one of ${PERIODS.join(', ')})`);
  if (!isPeriod(v)) throw badRequest(`${field} must be one of ${PERIODS.join(', ')}, got ${JSON.stringify(v)}`);
  return v;
}

/** `inject` is the prose's name for the no-auth protocol; it is accepted and stored as http_noauth. */
export function parseProtocol(v: unknown, field: string): Protocol {
  if (v === 'inject') return 'http_noauth';
  if (typeof v !== 'string' || !(PROTOCOLS as readonly string[]).includes(v)) {
    throw new ApiFailure(400, 'protocol_invalid', `${field} must be one of ${PROTOCOLS.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v as Protocol;
}

// Lengths count characters (Unicode code points) as JSON Schema's minLength/maxLength do: the
// `u` flag makes each quantifier count code points, not UTF-16 halves.
const USERNAME_RE = /^[^\s:@]{3,32}$/u;

export function validUsername(v: unknown): v is string {
  return typeof v === 'string' && USERNAME_RE.test(v);
}

export function parseCredentials(v: unknown, field = 'credentials'): Credentials | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(`${field} must be an object { username, password }`);
  const { username, password } = v as Record<string, unknown>;
  // The spec sets no rules for custom credentials; only what would break the
  // ip:port:username:password connection string (or a login) is refused.
  if (typeof username !== 'string' || !/^[^\s:@]{1,64}$/u.test(username))
    throw badRequest(`${field}.username must be 1 to 64 characters without spaces, ':' or '@'`);
  if (typeof password !== 'string' || !/^[^\s:]{1,64}$/u.test(password)) {
    throw badRequest(`${field}.password must be 1 to 64 characters without spaces or ':'`);
  }
  return { username, password };
}

/** allowedIps as a list of IPv4 addresses with a size rule; the error code is allowed_ips_invalid. */
export function parseAllowedIps(v: unknown, field: string, min: number, max: number, rule: string): string[] {
  if (!Array.isArray(v)) throw new ApiFailure(400, 'allowed_ips_invalid', `${field} is required: ${rule}`);
  if (v.length < min || v.length > max) throw new ApiFailure(400, 'allowed_ips_invalid', `${field} must hold ${rule}, got ${v.length}`);
  for (const ip of v) {
    if (typeof ip !== 'string' || !isIPv4(ip))
      throw new ApiFailure(400, 'allowed_ips_invalid', `${field} entry ${JSON.stringify(ip)} is not an IPv4 address`);
  }
  return [...new Set(v as string[])];
}

export const DESCRIPTION_MAX = 500;

/** Characters as JSON Schema counts them (Unicode code points): an emoji is one, not two. */
const charCount = (s: string): number => [...s].length;

/** A unit's description: a string of at most DESCRIPTION_MAX characters. */
export function parseDescription(v: unknown): string {
  if (typeof v !== 'string' || charCount(v) > DESCRIPTION_MAX)
    throw badRequest(`description must be a string of at most ${DESCRIPTION_MAX} characters`);
  return v;
}

/**
 * A query parameter's value, or undefined when it is absent. A parameter given with no value
 * (`?pageSize=`) is not absent: every parameter's schema says what a value must be, and an empty
 * one is none of them, so it is refused with 400 (naming the parameter), never read as the default.
 */
export function queryValue(q: URLSearchParams, name: string): string | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if (raw === '') throw badRequest(`${name} has no value: give one, or leave the parameter out`);
  return raw;
}

export function queryInt(q: URLSearchParams, name: string, dflt: number, min: number, max: number): number {
  const raw = queryValue(q, name);
  if (raw === undefined) return dflt;
  if (!/^-?\d+$/.test(raw)) throw badRequest(`${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw badRequest(`${name} must be an integer between ${min} and ${max}, got ${n}`);
  return n;
}

export function queryBool(q: URLSearchParams, name: string): boolean {
  const raw = queryValue(q, name);
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw badRequest(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

export function queryEnum<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const raw = queryValue(q, name);
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw badRequest(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

/** Upper bounds of the list queries (openapi.json states them as `maximum`). */
export const PAGE_MAX = Number.MAX_SAFE_INTEGER;
export const EXPIRING_WITHIN_HOURS_MAX = 1_000_000;

/**
 * Webhook URLs, as openapi.json states them (JSON Schema patterns, case-insensitive by hand):
 * https anywhere; plain http only to this machine (127.0.0.1, localhost, [::1]). No user:password@.
 */
export const WEBHOOK_URL_PATTERNS = {
  https: '^[Hh][Tt][Tt][Pp][Ss]://[^/?#@\\s]+([/?#]\\S*)?$',
  loopbackHttp: '^[Hh][Tt][Tt][Pp]://(127\\.0\\.0\\.1|[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|\\[::1\\])(:[0-9]{1,5})?([/?#]\\S*)?$',
} as const;

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
