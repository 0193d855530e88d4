// What POST /_sandbox/trigger takes for each event: the one table the handler checks a body
// against (a field of another event, a null or a value of the wrong type is 400, never ignored or
// defaulted) and openapi.json describes (one closed body schema per event).
import { PERIODS } from './catalogue.js';
import { badRequest } from './http.js';

type Schema = Record<string, unknown>;

export interface TriggerField {
  type: 'string' | 'number';
  enum?: readonly string[];
  format?: 'date-time';
  description?: string;
}

export interface TriggerEvent {
  fields: Record<string, TriggerField>;
  required: string[];
  description: string;
}

const str = (description?: string): TriggerField => ({ type: 'string', ...(description ? { description } : {}) });
const num = (description?: string): TriggerField => ({ type: 'number', ...(description ? { description } : {}) });
const proxyRef = str('an existing unit');
const poolId = str('an existing pool');
const usageFigures = { consumedMb: num(), limitMb: num("default: the unit's daily cap") };

/** Every event `trigger` fires, with the fields its body may carry besides `event`. */
export const TRIGGER_EVENTS: Record<string, TriggerEvent> = {
  'unit.created': {
    fields: { proxyRef, poolId: str(), period: { type: 'string', enum: PERIODS }, pricePaid: num() },
    required: ['proxyRef'],
    description: "the unit's pool, period and price unless given",
  },
  'unit.extended': {
    fields: { proxyRef, period: { type: 'string', enum: PERIODS }, pricePaid: num(), expiresAt: { type: 'string', format: 'date-time' } },
    required: ['proxyRef'],
    description: "the unit's period, its price and expiry unless given",
  },
  'unit.swapped': { fields: { proxyRef }, required: ['proxyRef'], description: '' },
  'unit.protocol_changed': { fields: { proxyRef }, required: ['proxyRef'], description: '' },
  'unit.modified': { fields: { proxyRef }, required: ['proxyRef'], description: '' },
  'unit.released': { fields: { proxyRef }, required: ['proxyRef'], description: '' },
  'unit.down': {
    fields: { proxyRef, reason: { type: 'string', enum: ['quota_exceeded', 'server_unreachable'] } },
    required: ['proxyRef'],
    description: 'its proxy refuses connections until unit.up; reason default server_unreachable',
  },
  'usage.warning': {
    fields: { proxyRef, kind: { type: 'string', enum: ['throttle', 'delete'] }, thresholdPct: num(), ...usageFigures },
    required: ['proxyRef'],
    description: 'kind default throttle (threshold 80), delete has 75',
  },
  'usage.throttled': {
    fields: { proxyRef, throttleSpeedMbps: num(), durationHours: num(), ...usageFigures },
    required: ['proxyRef'],
    description: '',
  },
  'server.down': {
    fields: { poolId, reason: str('default maintenance') },
    required: ['poolId'],
    description: 'the pool shows available: false and its proxies refuse connections until server.up',
  },
  'server.ip_changed': {
    fields: { poolId, newIp: str('with proxies: an address in 127.0.0.0/8 where they can listen (default: one is picked)') },
    required: ['poolId'],
    description: "the pool's units move to the new address",
  },
  'balance.low': {
    fields: { balance: num('default: the balance'), threshold: num('default: --balance-low-threshold') },
    required: [],
    description: '',
  },
  'unit.up': { fields: { proxyRef }, required: ['proxyRef'], description: 'sandbox action, no webhook: ends unit.down' },
  'server.up': { fields: { poolId }, required: ['poolId'], description: 'sandbox action, no webhook: ends server.down' },
};

const typeOk = (f: TriggerField, v: unknown): boolean =>
  f.type === 'number'
    ? typeof v === 'number' && Number.isFinite(v)
    : typeof v === 'string' &&
      (f.enum === undefined || f.enum.includes(v)) &&
      (f.format !== 'date-time' || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))));

const what = (f: TriggerField) =>
  f.enum ? `one of ${f.enum.join(', ')}` : f.format === 'date-time' ? 'an ISO 8601 date-time' : `a ${f.type}`;

/** Checks a trigger body against its event's fields: 400 naming the first field that does not belong or fit. */
export function checkTriggerBody(event: string, b: Record<string, unknown>): void {
  const spec = TRIGGER_EVENTS[event];
  if (!spec) throw badRequest(`event must be one of ${Object.keys(TRIGGER_EVENTS).join(', ')}`);
  const names = Object.keys(spec.fields);
  for (const [k, v] of Object.entries(b)) {
    if (k === 'event') continue;
    const f = spec.fields[k];
    if (!f) throw badRequest(`${k} is not a field of ${event}${names.length ? ` (it takes ${names.join(', ')})` : ' (it takes no field)'}`);
    if (!typeOk(f, v)) throw badRequest(`${k} of ${event} must be ${what(f)}, got ${JSON.stringify(v)}`);
  }
  for (const k of spec.required) if (b[k] === undefined) throw badRequest(`${event} needs ${k}`);
}

/** The request body of POST /_sandbox/trigger in openapi.json: one closed object per event. */
export function triggerBodySchema(): Schema {
  return {
    oneOf: Object.entries(TRIGGER_EVENTS).map(([event, spec]) => ({
      type: 'object',
      title: event,
      ...(spec.description ? { description: spec.description } : {}),
      properties: {
        event: { type: 'string', const: event },
        ...Object.fromEntries(
          Object.entries(spec.fields).map(([k, f]) => [
            k,
            {
              type: f.type,
              ...(f.enum ? { enum: [...f.enum] } : {}),
              ...(f.format ? { format: f.format } : {}),
              ...(f.description ? { description: f.description } : {}),
            },
          ]),
        ),
      },
      required: ['event', ...spec.required],
      additionalProperties: false,
    })),
  };
}
