// `-o conn` lines in the format a customer's software wants (`--conn-format`): the presets colon
// (the contract's ip:port:user:pass, the default), at (user:pass@ip:port) and url
// (socks5://user:pass@ip:port, http://… for http units, http://ip:port for no-auth ones), or a
// template of placeholders such as '{user}:{pass}@{ip}:{port}'. The format is checked before any
// request: an unknown preset or placeholder is exit 2. Values arrive escaped (printList passes
// every unit through escapeDeep), so server text never drives the terminal; the template's own
// text is the user's and is written as typed.
import type { BaseContext as Context } from '../globals.js';
import { UsageError } from '../errors.js';
import { connString, type UnitLike } from './format.js';
import type { View } from './view.js';

import { CONN_PLACEHOLDERS, CONN_PRESETS } from './conn-names.js';

type Placeholder = (typeof CONN_PLACEHOLDERS)[number];

interface ConnUnit extends UnitLike {
  protocol?: unknown;
  proxyRef?: unknown;
  poolId?: unknown;
  country?: unknown;
  expiresAt?: unknown;
}

type ConnFormatter = (u: ConnUnit) => string | undefined;

const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

function field(u: ConnUnit, name: Placeholder): string {
  switch (name) {
    case 'ip':
      return text(u.ip);
    case 'port':
      return text(u.port);
    case 'user':
      return text(u.credentials?.username);
    case 'pass':
      return text(u.credentials?.password);
    case 'protocol':
      return text(u.protocol);
    case 'ref':
      return text(u.proxyRef);
    case 'pool':
      return text(u.poolId);
    case 'country':
      return text(u.country);
    case 'expiresAt':
      return text(u.expiresAt);
  }
}

/** A unit the client can connect to: ip and port present (the others print no line, as -o conn always did). */
function reachable(u: ConnUnit): boolean {
  return typeof u.ip === 'string' && (typeof u.port === 'number' || typeof u.port === 'string');
}

function credentials(u: ConnUnit): { username: string; password: string } | undefined {
  const c = u.credentials;
  return c && typeof c.username === 'string' && typeof c.password === 'string' ? { username: c.username, password: c.password } : undefined;
}

/** socks5 stays socks5; http and the no-auth protocol (http_noauth, "inject") are http. */
function scheme(protocol: unknown): string {
  const p = typeof protocol === 'string' ? protocol.toLowerCase() : '';
  if (p === 'http' || p === 'http_noauth' || p === 'inject') return 'http';
  return /^[a-z][a-z0-9+.-]*$/.test(p) ? p : 'socks5';
}

const PRESETS: Record<(typeof CONN_PRESETS)[number], ConnFormatter> = {
  colon: (u) => connString(u),
  at: (u) => {
    if (!reachable(u)) return undefined;
    const c = credentials(u);
    return c ? `${c.username}:${c.password}@${u.ip}:${u.port}` : `${u.ip}:${u.port}`;
  },
  url: (u) => {
    if (!reachable(u)) return undefined;
    const c = credentials(u);
    // A URL's user info is percent-encoded, so a password with '@' or ':' still parses.
    const auth = c ? `${encodeURIComponent(c.username)}:${encodeURIComponent(c.password)}@` : '';
    return `${scheme(u.protocol)}://${auth}${u.ip}:${u.port}`;
  },
};

const PRESET_LIST = `${CONN_PRESETS.join(', ')}`;
const PLACEHOLDER_LIST = CONN_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');

/**
 * The formatter for `--conn-format` (undefined: the default colon form). A value with a `{` is a
 * template (`{{` and `}}` are literal braces); anything else must name a preset.
 */
function parseConnFormat(raw: string | undefined): ConnFormatter | undefined {
  if (raw === undefined) return undefined;
  if (!raw.includes('{') && !raw.includes('}')) {
    const preset = PRESETS[raw.trim().toLowerCase() as keyof typeof PRESETS];
    if (preset) return preset;
    throw new UsageError(`--conn-format "${raw}" is not a preset (${PRESET_LIST}) or a template`, {
      hint: `a template uses ${PLACEHOLDER_LIST}, e.g. --conn-format '{user}:{pass}@{ip}:{port}'`,
    });
  }
  const parts: (string | { name: Placeholder })[] = [];
  const re = /\{\{|\}\}|\{([^{}]*)\}|[{}]/g;
  let last = 0;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    if (m.index > last) parts.push(raw.slice(last, m.index));
    last = re.lastIndex;
    if (m[0] === '{{' || m[0] === '}}') parts.push(m[0][0]!);
    else if (m[1] !== undefined && (CONN_PLACEHOLDERS as readonly string[]).includes(m[1])) parts.push({ name: m[1] as Placeholder });
    else
      throw new UsageError(
        m[1] === undefined ? `--conn-format has an unmatched "${m[0]}"` : `--conn-format has an unknown placeholder {${m[1]}}`,
        { hint: `placeholders: ${PLACEHOLDER_LIST} (write {{ or }} for a literal brace)` },
      );
  }
  if (last < raw.length) parts.push(raw.slice(last));
  return (u) => (reachable(u) ? parts.map((p) => (typeof p === 'string' ? p : field(u, p.name))).join('') : undefined);
}

/**
 * The `-o conn` line of the format asked for (undefined: none asked, the view's own is kept).
 * `--conn-format` implies `-o conn` (it means nothing to other formats); with another `-o` it is exit 2.
 */
export function connFormatFor(ctx: Context, raw: string | undefined): ((row: unknown) => string | undefined) | undefined {
  const format = parseConnFormat(raw);
  if (!format) return undefined;
  const asked = ctx.globals.output;
  if (asked !== undefined && asked !== 'conn')
    throw new UsageError(`--conn-format shapes -o conn lines; it cannot be used with -o ${asked}`, {
      hint: 'drop -o (--conn-format implies -o conn)',
    });
  ctx.globals.output = 'conn';
  return (row) => format(row as ConnUnit);
}

/** `view` with its `-o conn` lines in the format asked for by `--conn-format` (see connFormatFor). */
export function withConnFormat<T>(ctx: Context, view: View<T>, raw: string | undefined): View<T> {
  const conn = connFormatFor(ctx, raw);
  return conn ? { ...view, conn } : view;
}
