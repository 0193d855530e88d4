// The echo target (`/echo`, outside /api, no key): answers what it saw of the request, so a proxy
// check needs no internet. Secrets are left out of the headers it repeats.
import type { IncomingMessage } from 'node:http';
import { sourceAddress } from './http-proxy.js';

export const ECHO_PATH = '/echo';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'cookie']);

export function echoBody(req: IncomingMessage): Record<string, unknown> {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !SECRET_HEADERS.has(k)) headers[k] = v;
  return {
    sourceAddress: sourceAddress(req.socket),
    sourcePort: req.socket.remotePort ?? null,
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers,
  };
}
