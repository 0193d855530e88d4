// Injected faults for client tests: `failNext` answers the next N matching requests with an error
// before doing anything; `dropAfterCommit` lets the next N matching operations commit (debit,
// unit, idempotency record) and then destroys the socket without answering: a lost response.
import { badRequest } from './http.js';

export interface FailNext {
  op?: string;
  status: number;
  count: number;
  code?: string;
}

export interface DropAfterCommit {
  op?: string;
  count: number;
}

export interface Faults {
  failNext?: FailNext;
  dropAfterCommit?: DropAfterCommit;
}

/** Short names accepted beside the operationIds of openapi.json. */
export const ALIASES: Record<string, string> = {
  create: 'createUnit',
  extend: 'extendUnit',
  swap: 'swapUnit',
  'change-protocol': 'changeUnitProtocol',
  modify: 'modifyUnit',
  release: 'releaseUnit',
  list: 'listUnits',
  get: 'getUnit',
  usage: 'getUnitUsage',
  pin: 'setProxyUsername',
  uptime: 'getUptime',
  'webhook-test': 'testWebhook',
};

export function opMatches(faultOp: string | undefined, op: string | undefined): boolean {
  return faultOp === undefined || faultOp === op || ALIASES[faultOp] === op;
}

const DEFAULT_CODES: Record<number, string> = {
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

export function defaultFaultCode(status: number): string {
  return DEFAULT_CODES[status] ?? 'injected_fault';
}

function count(v: unknown, field: string): number {
  if (v === undefined) return 1;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw badRequest(`${field}.count must be an integer >= 0`);
  return v;
}

/** Every name a fault's `op` may take: the API's operationIds and their short names. */
export function faultOps(operationIds: readonly string[]): string[] {
  return [...operationIds, ...Object.keys(ALIASES).filter((a) => operationIds.includes(ALIASES[a]!))];
}

/**
 * A fault's op: absent (any operation), or a name that matches one. A name that matches none would
 * arm a fault that never fires, so it is refused with 400 naming the ones that exist.
 */
function opOf(v: unknown, field: string, ops: readonly string[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !ops.includes(v))
    throw badRequest(`${field}.op must be an operationId of openapi.json or a short name (${ops.join(', ')}), got ${JSON.stringify(v)}`);
  return v;
}

/** `ops`: the names an op may take (`faultOps`). */
export function parseFaults(b: Record<string, unknown>, current: Faults, ops: readonly string[]): Faults {
  const op = (v: unknown, field: string) => opOf(v, field, ops);
  const next: Faults = { ...current };
  if (b.failNext !== undefined) {
    const f = b.failNext as Record<string, unknown> | null;
    if (f === null) delete next.failNext;
    else {
      const status = typeof f === 'object' ? f.status : undefined;
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
        throw badRequest('failNext.status must be an HTTP error status (400-599)');
      if (f.code !== undefined && typeof f.code !== 'string') throw badRequest('failNext.code must be a string');
      next.failNext = { op: op(f.op, 'failNext'), status, count: count(f.count, 'failNext'), code: f.code as string | undefined };
    }
  }
  if (b.dropAfterCommit !== undefined) {
    const d = b.dropAfterCommit as Record<string, unknown> | null;
    if (d === null) delete next.dropAfterCommit;
    else {
      if (typeof d !== 'object') throw badRequest('dropAfterCommit must be an object { op?, count }');
      next.dropAfterCommit = { op: op(d.op, 'dropAfterCommit'), count: count(d.count, 'dropAfterCommit') };
    }
  }
  return next;
}
