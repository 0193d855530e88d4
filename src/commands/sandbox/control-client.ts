// A plain fetch to the /_sandbox/ control endpoint of a running sandbox, authenticated with the
// main key from PROXYCTL_API_KEY (the sandbox's default key when unset).
import type { Context } from '../../context/index.js';
import { ApiError, NetworkError, UsageError } from '../../errors.js';
import { DEFAULT_API_KEY } from '../../sandbox/world.js';

export async function callControl(ctx: Context, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const base = ctx.globals.baseUrl;
  if (!base)
    throw new UsageError('no sandbox address', {
      hint: 'pass --base-url http://127.0.0.1:PORT or set PROXYCTL_BASE_URL (printed by proxyctl sandbox)',
    });
  const url = `${base.replace(/\/+$/, '')}/_sandbox/${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        'x-api-key': ctx.io.env.PROXYCTL_API_KEY || DEFAULT_API_KEY,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.globals.timeoutMs)]),
    });
  } catch (e) {
    throw new NetworkError(`cannot reach the sandbox at ${base}: ${(e as Error).message}`, {
      cause: e,
      hint: 'is proxyctl sandbox running there?',
    });
  }
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new NetworkError(`the sandbox at ${base} answered HTTP ${res.status} with a body that is not JSON`);
  }
  if (!res.ok) {
    const e = (parsed.error ?? {}) as Record<string, unknown>;
    throw new ApiError({
      status: res.status,
      code: String(e.code ?? 'error'),
      message: String(e.message ?? `HTTP ${res.status}`),
      requestId: res.headers.get('x-request-id') ?? undefined,
      raw: e,
    });
  }
  return parsed;
}
