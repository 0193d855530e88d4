// Turning an HTTP answer into data or a typed error: the error envelope of spec §7 becomes an
// ApiError (branch on status and code, never on type), with a next step for the user.
import { ApiError } from '../errors.js';

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

export function apiErrorFrom(status: number, parsed: unknown, requestId: string | undefined, retryAfter: number | undefined): ApiError {
  const env = (parsed as { error?: Record<string, unknown> } | undefined)?.error;
  if (!env || typeof env !== 'object') {
    return new ApiError(
      { status, code: `http_${status}`, message: `the server answered HTTP ${status} without an error body`, requestId, retryAfter },
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
    },
    hintFor(status, code, required, retryAfter),
  );
}

function hintFor(status: number, code: string, required: number | undefined, retryAfter: number | undefined): string | undefined {
  if (status === 401) return 'the API key was rejected: run proxyctl login, or set PROXYCTL_API_KEY';
  if (status === 403 && code === 'reseller_disabled') return "reseller mode is not enabled for this account; the operator's support enables it";
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
