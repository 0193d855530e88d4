// Finds the three unpublished operations in the server's openapi.json, by the rules of the CLI
// contract ("Where the API spec is silent"). Results are cached per base URL in the config dir
// for an hour; anything missing, unparsable or unmatched falls back to the contract's defaults.
import type { ApiClient } from './client.js';
import { API_PREFIX } from './client.js';
import { ApiError, BadResponseError, InterruptedError } from '../errors.js';
import * as shapes from './shapes.js';

/** The three operations whose paths the API spec does not publish (defaults: operations.ts). */
export type UnpublishedOperation = 'pinUsername' | 'unitUsage' | 'webhookTest';

export interface OperationRef {
  method: string;
  /** Path below /api/reseller/v1, with `{proxyRef}` where the unit goes. */
  path: string;
}

export const DISCOVERY_TTL_MS = 60 * 60 * 1000;
// 2: adds sandboxEcho (an entry of version 1 never looked for it).
const CACHE_VERSION = 2;

export type Discovered = Partial<Record<UnpublishedOperation, OperationRef>> & {
  /** The server is a proxyctl sandbox: its echo target's path (`info["x-proxyctl-sandbox"].echo`), for `units check`. */
  sandboxEcho?: string;
};

interface CacheEntry {
  v: number;
  fetchedAt: number;
  ops: Discovered;
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function obj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** Follows a local `$ref` ("#/components/schemas/X"), a few levels deep. */
function deref(doc: Json, v: unknown, depth = 0): Json | undefined {
  const o = obj(v);
  if (!o || depth > 8) return o;
  const ref = o.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return o;
  let cur: unknown = doc;
  for (const part of ref.slice(2).split('/')) cur = obj(cur)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return deref(doc, cur, depth + 1);
}

/** Property names of a schema, looking through allOf/oneOf/anyOf. */
function schemaProps(doc: Json, schema: unknown, depth = 0): Set<string> {
  const out = new Set<string>();
  const s = deref(doc, schema);
  if (!s || depth > 6) return out;
  for (const k of Object.keys(obj(s.properties) ?? {})) out.add(k);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const list = s[key];
    if (Array.isArray(list)) for (const sub of list) for (const k of schemaProps(doc, sub, depth + 1)) out.add(k);
  }
  return out;
}

function jsonSchemaOf(doc: Json, holder: unknown): unknown {
  const content = obj(deref(doc, holder)?.content);
  if (!content) return undefined;
  const media = content['application/json'] ?? Object.values(content)[0];
  return obj(media)?.schema;
}

/** Paths may be written in full or relative to a server URL that already ends in /api/reseller/v1. */
function relativePath(path: string): string {
  return path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) || '/' : path;
}

function mentions(op: Json, path: string, words: RegExp): boolean {
  const text = [op.operationId, op.summary, path].filter((x): x is string => typeof x === 'string').join(' ');
  return words.test(text);
}

/** Applies the contract's rules to an OpenAPI document. */
export function findOperations(doc: unknown): Discovered {
  const root = obj(doc);
  const paths = obj(root?.paths);
  if (!root || !paths) return {};
  const found: Discovered = {};
  const echo = obj(obj(root.info)?.['x-proxyctl-sandbox'])?.echo;
  if (typeof echo === 'string' && echo.startsWith('/')) found.sandboxEcho = echo;
  for (const [rawPath, item] of Object.entries(paths)) {
    const pathItem = obj(item);
    if (!pathItem) continue;
    const path = relativePath(rawPath);
    for (const method of METHODS) {
      const op = obj(pathItem[method]);
      if (!op) continue;
      const M = method.toUpperCase();
      if (!found.pinUsername && schemaProps(root, jsonSchemaOf(root, op.requestBody)).has('proxyUsername')) {
        found.pinUsername = { method: M, path };
      }
      const unitSub = /^\/units\/\{[^}]+\}\/.+/.test(path);
      if (!found.unitUsage && M === 'GET' && unitSub) {
        const ok = obj(op.responses)?.['200'];
        const props = schemaProps(root, jsonSchemaOf(root, ok));
        if (mentions(op, path, /usage|traffic/i) || (props.has('mode') && props.has('totalMb'))) {
          found.unitUsage = { method: M, path: path.replace(/^\/units\/\{[^}]+\}/, '/units/{proxyRef}') };
        }
      }
      if (!found.webhookTest && M === 'POST' && path.startsWith('/webhook/') && mentions(op, path, /test/i)) {
        found.webhookTest = { method: M, path };
      }
    }
  }
  return found;
}

const memo = new WeakMap<ApiClient, Promise<Discovered>>();

/** The discovered operations for this client's base URL: memory, then the disk cache, then the server. */
export function discover(api: ApiClient, now: () => number = Date.now): Promise<Discovered> {
  let p = memo.get(api);
  if (!p) {
    p = load(api, now);
    memo.set(api, p);
  }
  return p;
}

async function load(api: ApiClient, now: () => number): Promise<Discovered> {
  const key = `discovery:${api.baseUrl}`;
  const cached = await api.cache?.get<CacheEntry>(key).catch(() => undefined);
  if (
    cached &&
    cached.v === CACHE_VERSION &&
    typeof cached.fetchedAt === 'number' &&
    now() - cached.fetchedAt < DISCOVERY_TTL_MS &&
    obj(cached.ops)
  ) {
    return cached.ops;
  }
  let ops: Discovered;
  try {
    // A missing or broken description is not worth backing off for: the defaults are right there.
    ops = findOperations(await api.get('/openapi.json', shapes.openapi, undefined, { retry: 'not-sent' }));
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    // The server says it has no description (404) or sent something unparsable: remember the
    // defaults. Other failures (auth, rate limit, unreachable): defaults now, ask again next run.
    const answered = (err instanceof ApiError && (err.status === 404 || err.status === 405)) || err instanceof BadResponseError;
    if (!answered) return {};
    ops = {};
  }
  await api.cache?.set(key, { v: CACHE_VERSION, fetchedAt: now(), ops } satisfies CacheEntry).catch(() => undefined);
  return ops;
}
