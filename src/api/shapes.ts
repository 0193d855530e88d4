// What each operation must answer for the command that calls it (spec §2 and §4), checked by the
// client before any command reads a field. Only the fields a command relies on are required.
import { anything, bool, list, nullable, num, object, optional, shape, str, type Shape } from './validate.js';

const credentials = optional(nullable(object({ username: str, password: str })));
const unitFields = object({
  proxyRef: str,
  ip: optional(str),
  port: optional(num),
  credentials,
  status: optional(str),
  expiresAt: optional(str),
});

/** A page of a collection: `{ data: [item], pagination }`. */
export function pageOf(item: Shape): Shape {
  return shape(`a page of ${item.plural ?? 'items'}`, object({ data: list(item.check), pagination: optional(object()) }));
}

export const unit = shape('a unit', unitFields, 'units');
export const unitPage = pageOf(unit);
/** GET /account: the balance is what quotes and `account` read. */
export const account = shape(
  'the account balance',
  object({ balanceUsd: num, discountPercent: optional(num), resellerEnabled: optional(bool) }),
);
/** GET /me: the snapshot. */
export const snapshot = shape('the account snapshot', object({ balanceUsd: num, units: optional(object()), webhook: optional(object()) }));
export const uptime = shape('an uptime record', object({ units: optional(list(object())) }));
export const usage = shape('a usage record', object());
export const pool = shape('a pool', object({ poolId: str, available: optional(bool), prices: optional(object()) }), 'pools');
export const poolList = shape('the pool list', object({ data: list(object({ poolId: str })), prices: optional(object()) }));
export const prices = shape('the price list', object({ prices: object() }));
/** Providers, countries, states: `{ data: [entry] }`. */
export const catalogueList = shape('a catalogue list', object({ data: list(object()) }));
export const webhookConfig = shape('the webhook configuration', object({ url: nullable(str), enabled: optional(bool) }));
/** DELETE /webhook answers `{ enabled: false }`; PATCH with `url: null` answers the configuration. */
export const webhookDisabled = shape('the webhook configuration', object({ enabled: optional(bool) }));
export const delivery = shape('a webhook delivery', object({ id: str, status: optional(str), event: optional(str) }), 'webhook deliveries');
export const deliveryPage = pageOf(delivery);
/** The test event's answer is not specified: any object. */
export const webhookTest = shape('the test event', object());
export const removed = shape('the release result', object({ proxyRef: optional(str), removed: optional(bool) }));
export const modified = shape('the modify result', object({ proxyRef: optional(str) }));
export const extended = shape('the extend result', object({ proxyRef: optional(str), expiresAt: str }));
/** The username pin's answer is not specified: an object, or nothing. */
export const usernamePin = shape('the username change', optional(object()));
export const openapi = shape('an OpenAPI description', object());
/** `proxyctl api`: whatever came, as long as it is JSON (or empty). */
export const raw = shape('any JSON', anything);
