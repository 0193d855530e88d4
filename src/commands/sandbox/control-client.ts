// A plain fetch to the /_sandbox/ control endpoint of a running sandbox. Where it is: --base-url,
// else PROXYCTL_BASE_URL, else the base URL of the profile in use once its openapi.json says it is
// a proxyctl sandbox (so a profile of a real API gets an exit 2, not stray control requests). The
// main key: PROXYCTL_API_KEY, else (for the profile's sandbox) the profile's key, else the sandbox's
// default key.
import { getOpenapi } from '../../api/endpoints.js';
import { type ApiClient, checkBaseUrl } from '../../api/index.js';
import type { Context } from '../../context/index.js';
import { nonEmpty } from '../../context/index.js';
import { resolveCredentials } from '../../context/credentials.js';
import { ApiError, BadResponseError, NetworkError, UsageError } from '../../errors.js';
import { sandboxCommandFor } from '../../net/loopback.js';
import { DEFAULT_API_KEY } from '../../sandbox/world.js';

interface SandboxAddress {
  base: string;
  key: string;
}

const NO_ADDRESS_HINT =
  'pass --base-url http://127.0.0.1:PORT, set PROXYCTL_BASE_URL (printed by proxyctl sandbox), or use a profile logged in to the sandbox';

async function sandboxAddress(ctx: Context): Promise<SandboxAddress> {
  const envKey = nonEmpty(ctx.io.env.PROXYCTL_API_KEY);
  const given = ctx.globals.baseUrl;
  // The key goes where the API client would send it: https, or http on loopback, else --insecure.
  if (given) return { base: checkBaseUrl(given, ctx.globals.insecure).href, key: envKey ?? DEFAULT_API_KEY };
  const creds = await resolveCredentials(ctx);
  if (!creds.baseUrl) throw new UsageError('no sandbox address', { hint: NO_ADDRESS_HINT });
  // The profile's base URL (flags and environment named none): asked first whether it is a sandbox.
  const api = await ctx.api();
  if (!(await isSandbox(api))) {
    throw new UsageError(`the base URL of profile "${creds.profile}" (${api.baseUrl}) is not a proxyctl sandbox`, {
      code: 'not_a_sandbox',
      hint: NO_ADDRESS_HINT,
    });
  }
  return { base: api.baseUrl, key: envKey ?? creds.apiKey ?? DEFAULT_API_KEY };
}

/** Its openapi.json marks it (`info["x-proxyctl-sandbox"]`); unreachable is the transport's error, with its hint. */
async function isSandbox(api: ApiClient): Promise<boolean> {
  const [{ findOperations }, _shapes] = await Promise.all([import('../../api/discovery.js'), import('../../api/shapes.js')]);
  try {
    return findOperations(await getOpenapi(api, { retry: 'not-sent' })).sandboxEcho !== undefined;
  } catch (err) {
    if ((err instanceof ApiError && (err.status === 404 || err.status === 405)) || err instanceof BadResponseError) return false;
    throw err;
  }
}

export async function callControl(ctx: Context, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const { base, key } = await sandboxAddress(ctx);
  const url = `${base.replace(/\/+$/, '')}/_sandbox/${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        'x-api-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.globals.timeoutMs)]),
    });
  } catch (e) {
    const start = sandboxCommandFor(base);
    throw new NetworkError(`cannot reach the sandbox at ${base}: ${(e as Error).message}`, {
      cause: e,
      hint: start ? `is proxyctl sandbox running there? start one: ${start}` : 'is proxyctl sandbox running there?',
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
