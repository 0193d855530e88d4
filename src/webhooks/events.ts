// Shapes of the webhook resources (spec §2.10, §2.11, §6.3) and one-line summaries of events.
// Unknown fields and unknown events are expected: summaries fall back to whatever arrives.
export type { Delivery, WebhookConfig } from '../api/shapes.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;

export interface EventPayload {
  id?: string;
  event?: string;
  occurredAt?: string;
  data?: Record<string, unknown>;
  test?: boolean;
  [k: string]: unknown;
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function join(...parts: (string | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' ');
}

/** "unit px_1 created (7d, 3.00 USD)", "balance 4.20 below 5": what a person wants at a glance. */
export function summarizeEvent(payload: EventPayload): string {
  const d = (payload.data && typeof payload.data === 'object' ? payload.data : {}) as Record<string, unknown>;
  const ref = str(d.proxyRef);
  const unit = ref ? `unit ${ref}` : 'unit';
  const paid = str(d.pricePaid);
  const prefix = payload.test === true ? '[test] ' : '';
  const affected = Array.isArray(d.affectedUnits) ? `${d.affectedUnits.length} unit(s) affected` : undefined;
  let text: string;
  switch (payload.event) {
    case 'unit.created':
      {
        const details = [str(d.period), str(d.poolId) && `pool ${str(d.poolId)}`, paid && `${paid} USD`].filter(Boolean).join(', ');
        text = join(unit, 'created', details && `(${details})`);
      }
      break;
    case 'unit.extended':
      text = join(unit, 'extended', str(d.period) && `by ${str(d.period)}`, str(d.expiresAt) && `until ${str(d.expiresAt)}`);
      break;
    case 'unit.swapped':
      text = `${unit} moved to another server`;
      break;
    case 'unit.protocol_changed':
      text = `${unit} protocol changed`;
      break;
    case 'unit.modified':
      text = `${unit} credentials or whitelist modified`;
      break;
    case 'unit.released':
      text = `${unit} released`;
      break;
    case 'unit.down':
      text = join(unit, 'down', str(d.reason) && `(${str(d.reason)})`);
      break;
    case 'usage.warning':
      text = join(
        unit,
        'at',
        str(d.thresholdPct) && `${str(d.thresholdPct)}%`,
        'of its cap',
        str(d.consumedMb) && `(${str(d.consumedMb)}/${str(d.limitMb) ?? '?'} MB)`,
      );
      break;
    case 'usage.throttled':
      text = join(
        unit,
        'throttled',
        str(d.throttleSpeedMbps) && `to ${str(d.throttleSpeedMbps)} Mbps`,
        str(d.durationHours) && `for ${str(d.durationHours)}h`,
      );
      break;
    case 'server.down':
      text = join('server', str(d.poolCode), 'down', str(d.reason) && `(${str(d.reason)})`, affected && `, ${affected}`);
      break;
    case 'server.ip_changed':
      text = join(
        'server',
        str(d.poolCode),
        'IP changed',
        str(d.oldIp) && `from ${str(d.oldIp)}`,
        str(d.newIp) && `to ${str(d.newIp)}`,
        affected && `, ${affected}`,
      );
      break;
    case 'balance.low':
      text = join('balance', str(d.balance), 'below the threshold', str(d.threshold));
      break;
    default: {
      const keys = Object.keys(d);
      text = keys.length ? `data: ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}` : 'no data';
    }
  }
  return prefix + text.replace(/ ,/g, ',');
}

/** The events of spec §6.4: what `webhook listen --on` accepts and TAB offers; deliveries may carry others. */
export const EVENT_NAMES = [
  'unit.created',
  'unit.extended',
  'unit.swapped',
  'unit.protocol_changed',
  'unit.modified',
  'unit.released',
  'unit.down',
  'usage.warning',
  'usage.throttled',
  'server.down',
  'server.ip_changed',
  'balance.low',
] as const;
