// The one scripted HTTP server: 127.0.0.1:0, every request recorded, the answer written by the
// test. For what the sandbox would never do (bad bodies, exact errors, slow or no answers, a
// webhook receiver that fails). Behaviour is tested against the sandbox (./sandbox*.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The body as text (UTF-8). */
  body: string;
  /** The body's exact bytes. */
  bytes: Buffer;
  /** When it arrived (Date.now()). */
  at: number;
}

/** Writes the answer; an answer never written leaves the request hanging (a server that never answers). */
export type ScriptedHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(handler: ScriptedHandler = () => undefined): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const rec: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: bytes.toString('utf8'),
        bytes,
        at: Date.now(),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res)).catch((e: unknown) => {
        res.statusCode = 500;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer with the API's headers (a fresh request id unless one is given). */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': `req_test_${Math.random().toString(36).slice(2)}`,
    'x-api-version': '1.0.0',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/** A body sent exactly as given (empty, `null`, not JSON…), labelled JSON, request id `req_hostile`. */
export function rawBody(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_hostile', ...headers });
  res.end(body);
}

/** The API's error envelope (spec §7), request id `req_<code>`. */
export function apiError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  json(res, status, { error: { type: 'invalid_request_error', code, message, requestId: `req_${code}` } }, headers);
}
