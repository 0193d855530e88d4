// The three operations whose paths the API spec does not publish. Their defaults come from the
// CLI contract; discovery from the server's openapi.json (src/api/discovery.ts) replaces them
// per base URL when the server describes them elsewhere.
// The types live in discovery.ts, which this module loads lazily, so the two never import each other.
import type { ApiClient } from './client.js';
import type { OperationRef, UnpublishedOperation } from './discovery.js';

export type { OperationRef, UnpublishedOperation } from './discovery.js';

export const DEFAULT_OPERATIONS: Record<UnpublishedOperation, OperationRef> = {
  pinUsername: { method: 'PUT', path: '/me/proxy-username' },
  unitUsage: { method: 'GET', path: '/units/{proxyRef}/usage' },
  webhookTest: { method: 'POST', path: '/webhook/test' },
};

/** Resolves an unpublished operation for this client's base URL. */
export async function resolveOperation(api: ApiClient, op: UnpublishedOperation): Promise<OperationRef> {
  const { discover } = await import('./discovery.js');
  return (await discover(api))[op] ?? DEFAULT_OPERATIONS[op];
}

export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? `{${name}}`));
}
