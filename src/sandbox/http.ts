// Small HTTP helpers: the error envelope of spec §7, JSON replies, body parsing and the request
// object handlers receive. Handlers throw ApiFailure; the server turns it into the envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const API_VERSION = '1.0.0';
export const API_PREFIX = '/api/reseller/v1';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_balance_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  409: 'invalid_request_error',
  408: 'invalid_request_error',
  413: 'invalid_request_error',
  431: 'invalid_request_error',
  429: 'rate_limit_error',
};

export function errorType(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'service_error' : 'invalid_request_error');
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { required?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'validation_error') => new ApiFailure(400, code, message);
export const unitNotFound = (ref: string) => new ApiFailure(404, 'unit_not_found', `unit ${ref} does not exist`);

/** What a handler sees of a request. */
export interface ApiRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  requestId: string;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number>): void {
  const text = JSON.stringify(body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}

export function errorBody(f: ApiFailure, requestId: string): { error: Record<string, unknown> } {
  return {
    error: {
      type: errorType(f.status),
      code: f.code,
      message: f.message,
      requestId,
      ...(f.extra.required !== undefined ? { required: f.extra.required } : {}),
    },
  };
}

const MAX_BODY = 1024 * 1024;
/**
 * How much of an oversized body is read (and dropped) before the 413 goes out. Reading it to its
 * end lets the client, still sending, read the answer: a socket closed on unread bytes is reset,
 * and the client sees ECONNRESET instead of the 413. Past this the connection is closed anyway.
 */
const MAX_DRAIN = 64 * 1024 * 1024;

const tooLarge = () => new ApiFailure(413, 'payload_too_large', `request body is larger than 1 MiB (${MAX_BODY} bytes)`);

/**
 * Reads the raw body (parsed later, once the route is known: an unknown path is 404, not 400).
 * A body over 1 MiB is read to its end without being kept, then refused with 413 and the envelope.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_DRAIN) {
        req.destroy();
        reject(tooLarge());
        return;
      }
      if (size <= MAX_BODY) chunks.push(c);
      else chunks.length = 0;
    });
    req.on('error', reject);
    req.on('end', () => (size > MAX_BODY ? reject(tooLarge()) : resolve(Buffer.concat(chunks).toString('utf8'))));
  });
}

/** An empty body is `undefined`; anything else must be JSON (400 invalid_json). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiFailure(400, 'invalid_json', `request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** Spec §1: a request with a body sends `Content-Type: application/json` (parameters such as charset allowed). */
export function requireJsonContentType(bodyText: string, contentType: string | undefined): void {
  if (bodyText === '') return;
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media !== 'application/json') {
    const got = contentType === undefined ? 'no Content-Type' : `Content-Type ${JSON.stringify(contentType)}`;
    throw new ApiFailure(400, 'invalid_content_type', `a request with a body must send Content-Type: application/json (got ${got})`);
  }
}
