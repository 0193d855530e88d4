// Placeholder replaced in M3 by the full OpenAPI 3.1 description.
export function buildOpenApi(_altPaths: boolean): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'Reseller Proxy API (sandbox)', version: '1.0.0' }, paths: {} };
}
