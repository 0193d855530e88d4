// Turning an HTTP answer into data or a typed error: the error envelope of spec §7 becomes an
// ApiError (branch on status and code, never on type), with a next step for the user.
import { ApiError, BadResponseError } from '../errors.js';
import { problemWith, type Shape } from './validate.js';

/** Parses a body as JSON; an error body that echoes the key back (some servers do) is redacted first. */
export function parseBody(status: number, body: string, apiKey: string): { parsed: unknown; ok: boolean } {
  const text = status >= 400 && apiKey ? body.split(apiKey).join('[REDACTED]') : body;
  if (text.length === 0) return { parsed: undefined, ok: true };
  try {
    return { parsed: JSON.parse(text), ok: true };
  } catch {
    return { parsed: undefined, ok: false };
  }
}

export function apiErrorFrom(
  status: number,
  parsed: unknown,
  requestId: string | undefined,
  retryAfter: number | undefined,
  replayed = false,
): ApiError {
  const env = (parsed as { error?: Record<string, unknown> } | undefined)?.error;
  if (!env || typeof env !== 'object') {
    return new ApiError(
      {
        status,
        code: `http_${status}`,
        message: `the server answered HTTP ${status} without an error body`,
        requestId,
        retryAfter,
        replayed,
      },
      hintFor(status, '', undefined, retryAfter),
    );
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const required = typeof env.required === 'number' ? env.required : undefined;
  const code = str(env.code) ?? `http_${status}`;
  return new ApiError(
    {
      status,
      code,
      type: str(env.type),
      message: str(env.message) ?? `HTTP ${status}`,
      requestId: str(env.requestId) ?? requestId,
      required,
      retryAfter,
      raw: env,
      replayed,
    },
    hintFor(status, code, required, retryAfter),
  );
}

function hintFor(status: number, code: string, required: number | undefined, retryAfter: number | undefined): string | undefined {
  if (status === 401) return 'the API key was rejected: run proxyctl login, or set PROXYCTL_API_KEY';
  if (status === 403 && code === 'reseller_disabled')
    return "reseller mode is not enabled for this account; the operator's support enables it";
  if (status === 402 && required !== undefined) return `the operation needs ${required} USD; top up the balance and try again`;
  if (status === 429 && retryAfter !== undefined) return `rate limited; the server asked to wait ${retryAfter}s`;
  if (status >= 500) return 'the service is having trouble; try again shortly';
  return undefined;
}

/** Retry-After in seconds: delta-seconds as the spec says, or an HTTP date as RFC 9110 allows. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (Number.isFinite(n)) return n >= 0 ? n : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** What the client knows about one answer when it judges it. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  requestId: string | undefined;
  /** The URL that was requested and the configured base URL, for messages. */
  url: string;
  baseUrl: string;
}

const BASE_URL_HINT =
  'check the base URL (--base-url, PROXYCTL_BASE_URL or proxyctl login): it is the address of the Reseller API, without /api/reseller/v1';

function about(a: Answer, extra?: string): string {
  return [`HTTP ${a.status}`, extra, a.requestId ? `request id ${a.requestId}` : undefined].filter(Boolean).join(', ');
}

/** The API's error statuses keep their meaning even without the §7 envelope (a gateway's 502, a bare 401). */
export function meaningfulWithoutEnvelope(status: number): boolean {
  return status === 401 || status === 429 || status >= 500;
}

export function hasErrorEnvelope(parsed: unknown): boolean {
  const env = (parsed as { error?: unknown } | undefined)?.error;
  return typeof env === 'object' && env !== null && !Array.isArray(env);
}

/** A 3xx: never followed, so the key stays here; the user learns where it pointed. */
export function redirectError(a: Answer): BadResponseError {
  const location = a.headers.location;
  let target = 'nowhere (no Location header)';
  if (location) {
    try {
      target = new URL(location, a.url).toString();
    } catch {
      target = location;
    }
  }
  return new BadResponseError(
    `unexpected redirect from the API (${about(a)}) to ${target}; proxyctl does not follow redirects, so the API key was not sent there`,
    {
      status: a.status,
      requestId: a.requestId,
      code: 'redirect',
      hint: `if the API has moved, use its new address as the base URL; ${BASE_URL_HINT}`,
    },
  );
}

/** Not JSON, or an error without the API's envelope: most likely some other server. */
export function notTheApiError(a: Answer): BadResponseError {
  const type = a.headers['content-type']?.split(';')[0]?.trim();
  if (a.status < 400 && type && /[/+]json$/i.test(type)) {
    // It says JSON but is not: cut short, or broken; the API itself, most likely.
    return new BadResponseError(`unexpected response from the API (${about(a)}): the body is not valid JSON (cut short?)`, {
      status: a.status,
      requestId: a.requestId,
      code: 'bad_response',
    });
  }
  return new BadResponseError(
    `unexpected response from the server (${about(a, type || undefined)}): is this the Reseller Proxy API? (base URL ${a.baseUrl})`,
    {
      status: a.status,
      requestId: a.requestId,
      code: 'not_the_api',
      hint: BASE_URL_HINT,
    },
  );
}

/** The answer's data, or a BadResponseError naming what the command needed and what was missing. */
export function checkShape(a: Answer, shape: Shape, parsed: unknown): unknown {
  const problem = problemWith(shape, parsed);
  if (problem === undefined) return parsed;
  throw new BadResponseError(`unexpected response from the API (${about(a)}): expected ${shape.what}, but ${problem}`, {
    status: a.status,
    requestId: a.requestId,
    code: 'bad_response',
    hint: 'if it persists, report it to the API operator with the request id',
  });
}
