// The sandbox in-process, spoken to with plain fetch: no proxyctl client code, so a client bug
// cannot hide a server bug. For conformance tests of the sandbox and for setting up the state a
// CLI test needs (a unit bought, an event fired) without going through the CLI under test.
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const PREFIX = '/api/reseller/v1';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any field of any answer
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (e.g. malformed JSON). */
  rawBody?: string;
  /** API key; null sends none. Defaults to the sandbox's main key. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** One request; a path not under /_sandbox or /api gets the API prefix. */
export async function call(sb: Sandbox, method: string, path: string, o: CallOptions = {}): Promise<RawResponse> {
  const url = sb.baseUrl + (path.startsWith('/_sandbox') || path.startsWith('/api') ? path : PREFIX + path);
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  const key = o.key === undefined ? sb.apiKey : o.key;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** A sandbox for one test file; fast engine, no real delays unless asked. */
export async function startFastSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, engineDelayMs: 1, ...opts });
}

export async function buy(sb: Sandbox, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<RawResponse> {
  return call(sb, 'POST', '/units', { body: { poolId: 'US-11', period: '24h', ...body }, headers });
}

/** Asserts the error envelope of spec §7 and that its requestId is the X-Request-Id header. */
export function errorOf(r: RawResponse): { type: string; code: string; message: string; requestId: string; required?: number } {
  const e = r.body?.error;
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.type !== 'string') {
    throw new Error(`not an error envelope (HTTP ${r.status}): ${r.text}`);
  }
  if (e.requestId !== r.headers.get('x-request-id'))
    throw new Error(`requestId ${e.requestId} differs from header ${r.headers.get('x-request-id')}`);
  return e;
}

/** Buys a unit in the first available pool with POST /units (which emits unit.created); its proxyRef. */
export async function createUnit(sb: Sandbox): Promise<string> {
  const pool = sb.world.pools.find((p) => p.available)!;
  const r = await call(sb, 'POST', '/units', { body: { poolId: pool.poolId, period: '7d', protocol: 'socks5' } });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.body.proxyRef as string;
}

/** Fires an operator event through the control endpoint. */
export async function trigger(sb: Sandbox, event: string, data: Record<string, unknown> = {}): Promise<void> {
  const r = await call(sb, 'POST', '/_sandbox/trigger', { body: { event, ...data } });
  if (r.status !== 202) throw new Error(`trigger failed: ${r.status} ${r.text}`);
}
