// The request pipeline: request id and version headers, injected faults, authentication, the two
// rate budgets, routing (method-strict), body parsing, the handler, and the error envelope.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { defaultFaultCode, faultOps, opMatches, parseFaults, type Faults } from './faults.js';
import {
  API_PREFIX,
  API_VERSION,
  ApiFailure,
  errorBody,
  parseJsonBody,
  readBody,
  requireJsonContentType,
  sendJson,
  type ApiRequest,
  type Reply,
} from './http.js';
import { buildOpenApi } from './openapi.js';
import { RateLimiter, type Budget } from './ratelimit.js';
import { Router, type Route } from './router.js';
import { apiRoutes, controlRoutes } from './routes/index.js';
import { bodyObject } from './validate.js';
import { ECHO_PATH, echoBody } from './proxies/echo.js';
import type { World } from './world.js';

const CONTROL_PREFIX = '/_sandbox';
const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export class RequestPipeline {
  readonly faults: { current: Faults } = { current: {} };
  /** The names a fault's op may take: the API's operations (faults apply to the API only) and their short names. */
  readonly faultOps: string[];
  private readonly api: Router;
  private readonly control: Router;
  private readonly general: RateLimiter;
  private readonly uptime: RateLimiter;
  private readonly idPrefix = `req_${randomBytes(4).toString('hex')}`;
  private seq = 0;
  private openapiText: string | undefined;

  constructor(private readonly w: World) {
    const routes = apiRoutes(w.o.altPaths);
    this.api = new Router(API_PREFIX, routes);
    this.faultOps = faultOps(routes.map((r) => r.op));
    const faultRoutes: Route[] = [
      { method: 'GET', path: '/faults', op: 'sandboxGetFaults', handler: () => ({ status: 200, body: this.faults.current }) },
      { method: 'POST', path: '/faults', op: 'sandboxSetFaults', handler: (_w, req) => this.setFaults(req) },
      {
        method: 'DELETE',
        path: '/faults',
        op: 'sandboxClearFaults',
        handler: () => {
          this.faults.current = {};
          return { status: 200, body: {} };
        },
      },
    ];
    this.control = new Router(CONTROL_PREFIX, [...controlRoutes(), ...faultRoutes]);
    const windowMs = w.o.rateWindowSeconds * 1000;
    this.general = new RateLimiter(w.o.rateLimit, windowMs);
    this.uptime = new RateLimiter(w.o.uptimeRateLimit, windowMs);
  }

  private setFaults(req: ApiRequest): Reply {
    this.faults.current = parseFaults(bodyObject(req.body, true), this.faults.current, this.faultOps);
    return { status: 200, body: this.faults.current };
  }

  private nextRequestId(): string {
    return `${this.idPrefix}${(++this.seq).toString(36).padStart(6, '0')}`;
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = this.nextRequestId();
    const headers: Record<string, string | number> = { 'x-request-id': requestId, 'x-api-version': API_VERSION };
    this.process(req, res, requestId, headers).catch((e: unknown) => {
      const f = e instanceof ApiFailure ? e : new ApiFailure(500, 'internal_error', 'the sandbox hit an unexpected error');
      if (!(e instanceof ApiFailure)) this.w.o.log(`sandbox: ${requestId}: ${(e as Error).stack ?? String(e)}`);
      if (res.headersSent || res.destroyed) return;
      Object.assign(headers, f.extra.headers ?? {});
      sendJson(res, f.status, errorBody(f, requestId), headers);
    });
  };

  /**
   * A request Node's HTTP parser rejects (malformed request line or headers, headers too large)
   * never reaches `handle`: it is answered here, with the headers and the error envelope every
   * response carries, and the connection closed.
   */
  clientError = (err: Error & { code?: string }, socket: Duplex): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = this.nextRequestId();
    const f =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiFailure(431, 'headers_too_large', 'the request headers are too large')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiFailure(408, 'request_timeout', 'the request was not received in time')
          : new ApiFailure(400, 'malformed_request', `the request is not valid HTTP/1.1 (${err.code ?? err.message})`);
    const body = JSON.stringify(errorBody(f, requestId));
    const b = this.general.peek('');
    const head = [
      `HTTP/1.1 ${f.status} ${STATUS_CODES[f.status] ?? 'Error'}`,
      `x-request-id: ${requestId}`,
      `x-api-version: ${API_VERSION}`,
      `x-ratelimit-limit: ${b.limit}`,
      `x-ratelimit-remaining: ${b.remaining}`,
      `x-ratelimit-reset: ${b.reset}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  };

  private rateHeaders(headers: Record<string, string | number>, b: Budget): void {
    headers['x-ratelimit-limit'] = b.limit;
    headers['x-ratelimit-remaining'] = b.remaining;
    headers['x-ratelimit-reset'] = b.reset;
  }

  private async process(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    headers: Record<string, string | number>,
  ): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    const rawKey = req.headers['x-api-key'];
    const key = typeof rawKey === 'string' ? rawKey : undefined;
    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    const isControl = path.startsWith(`${CONTROL_PREFIX}/`);
    let bodyText = '';
    if (method === 'GET' || method === 'HEAD') req.resume();
    else bodyText = await readBody(req);
    if (path === ECHO_PATH) {
      // The echo target for proxy checks: no key, no budget, any method.
      sendJson(res, 200, echoBody(req), headers);
      return;
    }
    this.rateHeaders(headers, this.general.peek(key ?? ''));
    if (!isApi && !isControl) throw new ApiFailure(404, 'not_found', `no such path: ${method} ${path}`);

    if (isApi && path.split('/').filter(Boolean).join('/') === OPENAPI_PATH.slice(1)) {
      // Like every path, a wrong method is 405 with Allow (before the key: this path needs none).
      if (method !== 'GET' && method !== 'HEAD') {
        headers.allow = 'GET';
        throw new ApiFailure(405, 'method_not_allowed', `${method} is not allowed on ${path}; allowed: GET`);
      }
      // Served without a key so clients can discover the operations before login.
      this.openapiText ??= JSON.stringify(
        buildOpenApi(this.w.o.altPaths, { proxies: this.w.o.proxies, perPoolAddresses: this.w.proxies?.perPool ?? false }),
      );
      headers['content-type'] = 'application/json; charset=utf-8';
      res.writeHead(200, headers);
      res.end(this.openapiText);
      return;
    }
    const match = (isApi ? this.api : this.control).match(method, path);
    const route = match && 'route' in match ? match.route : undefined;

    const fail = this.faults.current.failNext;
    if (isApi && fail && fail.count > 0 && opMatches(fail.op, route?.op)) {
      fail.count--;
      const retry = fail.status === 429 || fail.status === 503 ? { 'retry-after': '1' } : undefined;
      throw new ApiFailure(fail.status, fail.code ?? defaultFaultCode(fail.status), `injected fault: HTTP ${fail.status}`, {
        headers: retry,
      });
    }

    if (key !== this.w.o.apiKey && !(isApi && key === this.w.o.disabledApiKey)) {
      throw new ApiFailure(401, 'invalid_api_key', key === undefined ? 'the X-API-Key header is missing' : 'the API key is not valid');
    }
    if (isApi) {
      // The uptime budget is independent: it alone gates uptime requests. An accepted uptime
      // request still counts against the account-wide budget; a refused one does not, or polling
      // uptime too fast would drain (and so block) the other budget.
      const isUptime = route?.op === 'getUptime';
      const budget = isUptime ? this.uptime.hit(key) : this.general.hit(key);
      if (isUptime && budget.allowed) this.general.hit(key);
      this.rateHeaders(headers, budget);
      if (!budget.allowed) {
        headers['retry-after'] = budget.retryAfter;
        throw new ApiFailure(
          429,
          'rate_limited',
          `rate limit of ${budget.limit} requests per ${this.w.o.rateWindowSeconds} s exceeded; retry in ${budget.retryAfter} s`,
        );
      }
      if (key === this.w.o.disabledApiKey)
        throw new ApiFailure(403, 'reseller_disabled', 'reseller mode is not enabled for this account; contact support');
    }
    if (!match) throw new ApiFailure(404, 'not_found', `no such path: ${path}`);
    if (!route) {
      headers.allow = (match as { allow: string[] }).allow.join(', ');
      throw new ApiFailure(405, 'method_not_allowed', `${method} is not allowed on ${path}; allowed: ${headers.allow}`);
    }
    if (isApi) requireJsonContentType(bodyText, req.headers['content-type']);
    const apiReq: ApiRequest = {
      method,
      path,
      params: (match as { params: Record<string, string> }).params,
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      headers: req.headers,
      body: parseJsonBody(bodyText),
      requestId,
    };
    const reply = await route.handler(this.w, apiReq);
    const drop = this.faults.current.dropAfterCommit;
    if (isApi && drop && drop.count > 0 && opMatches(drop.op, route.op)) {
      drop.count--;
      res.socket?.destroy();
      return;
    }
    Object.assign(headers, reply.headers ?? {});
    sendJson(res, reply.status, reply.body, headers);
  }
}
