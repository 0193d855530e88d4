// What each operation must answer for the command that calls it (spec §2 and §4), checked by the
// client before any command reads a field. Each shape is also the type of what it lets through
// (`Infer`): the types below are derived, never written beside a check. A field a command reads is
// checked (optional where the spec does not promise it); every other field passes through as
// `unknown`, and JSON output keeps it verbatim.
import { anything, bool, list, nullable, num, object, optional, record, shape, str, type Infer, type Shape } from './validate.js';

const credentials = optional(nullable(object({ username: str, password: str })));

/** A page of a collection: `{ data: [item], pagination }`. */
export function pageOf<T>(item: Shape<T>) {
  return shape(
    `a page of ${item.plural ?? 'items'}`,
    object({
      data: list(item.check),
      pagination: optional(
        object({
          page: optional(num),
          pageSize: optional(num),
          totalItems: optional(num),
          total: optional(num),
          totalPages: optional(num),
          hasNext: optional(bool),
          hasPrev: optional(bool),
        }),
      ),
    }),
  );
}

export const unit = shape(
  'a unit',
  object({
    proxyRef: str,
    poolId: optional(str),
    provider: optional(str),
    country: optional(str),
    ip: optional(str),
    port: optional(num),
    protocol: optional(str),
    credentials,
    status: optional(str),
    createdAt: optional(str),
    expiresAt: optional(str),
    expiresIn: optional(num),
    allowedIps: optional(list(str)),
  }),
  'units',
);
export type Unit = Infer<typeof unit>;
export const unitPage = pageOf(unit);

const priceSchedule = record(num);
/** Prices by period, as the pools, the catalogue and the snapshot give them. */
export type Prices = Infer<typeof priceSchedule>;

/** GET /account: the balance is what quotes and `account` read. */
export const account = shape(
  'the account balance',
  object({ balanceUsd: num, discountPercent: optional(num), resellerEnabled: optional(bool) }),
);
export type Account = Infer<typeof account>;
/** GET /me: the snapshot. */
export const snapshot = shape(
  'the account snapshot',
  object({
    email: optional(str),
    balanceUsd: num,
    discountPercent: optional(num),
    resellerEnabled: optional(bool),
    units: optional(object({ active: optional(num), total: optional(num) })),
    prices: optional(priceSchedule),
    webhook: optional(object({ url: optional(nullable(str)), enabled: optional(bool) })),
  }),
);
export type Snapshot = Infer<typeof snapshot>;

const uptimeFigures = {
  uptimePercent: optional(nullable(num)),
  slotsUp: optional(num),
  slotsDown: optional(num),
  slotsExcluded: optional(num),
};
/** GET /me/uptime: the account's window and, per unit, the same figures. */
export const uptime = shape(
  'an uptime record',
  object({
    from: optional(str),
    to: optional(str),
    ...uptimeFigures,
    units: optional(list(object({ proxyRef: optional(str), poolId: optional(str), ...uptimeFigures }))),
  }),
);
export type Uptime = Infer<typeof uptime>;
export type UnitUptime = NonNullable<Uptime['units']>[number];
/** Usage: field names the spec does not give; whatever arrives is shown. */
export const usage = shape('a usage record', object());
export type Usage = Infer<typeof usage>;

export const pool = shape(
  'a pool',
  object({
    poolId: str,
    provider: optional(str),
    country: optional(str),
    state: optional(nullable(str)),
    rotation: optional(nullable(str)),
    available: optional(bool),
    prices: optional(priceSchedule),
  }),
  'pools',
);
/**
 * A pool as GET /pools lists it and GET /pools/{id} returns it: the one pool shape of the `pools`
 * commands, the guided create and the purchase quote. Prices may also come beside the list (one
 * schedule for every pool) instead of on each pool.
 */
export type Pool = Infer<typeof pool>;
export const poolList = shape('the pool list', object({ data: list(pool.check), prices: optional(priceSchedule) }));
export const prices = shape('the price list', object({ prices: priceSchedule }));
export type PriceList = Infer<typeof prices>;
/** Providers, countries, states: `{ data: [entry] }`; their fields are not in the spec, so any object. */
export const catalogueList = shape('a catalogue list', object({ data: list(object()) }));
export type CatalogueEntry = Infer<typeof catalogueList>['data'][number];

export const webhookConfig = shape(
  'the webhook configuration',
  object({ url: nullable(str), secret: optional(nullable(str)), enabled: optional(bool) }),
);
export type WebhookConfig = Infer<typeof webhookConfig>;
/** DELETE /webhook answers `{ enabled: false }`; PATCH with `url: null` answers the configuration. */
export const webhookDisabled = shape(
  'the webhook configuration',
  object({ url: optional(nullable(str)), secret: optional(nullable(str)), enabled: optional(bool) }),
);
const deliveryFields = {
  id: str,
  event: optional(str),
  url: optional(str),
  status: optional(str),
  attempts: optional(num),
  maxAttempts: optional(num),
  responseStatus: optional(nullable(num)),
  lastError: optional(nullable(str)),
  nextAttemptAt: optional(nullable(str)),
  createdAt: optional(str),
  deliveredAt: optional(nullable(str)),
};
export const delivery = shape('a webhook delivery', object(deliveryFields), 'webhook deliveries');
export type Delivery = Infer<typeof delivery>;
export const deliveryPage = pageOf(delivery);
export type DeliveryPage = Infer<typeof deliveryPage>;
/** The test event's answer: the delivery record it created (the contract's default), its id not promised. */
export const webhookTest = shape('the test event', object({ ...deliveryFields, id: optional(str) }));
export type TestDelivery = Infer<typeof webhookTest>;
export const removed = shape('the release result', object({ proxyRef: optional(str), removed: optional(bool) }));
export type Removed = Infer<typeof removed>;
export const modified = shape('the modify result', object({ proxyRef: optional(str), modified: optional(bool) }));
export type Modified = Infer<typeof modified>;
export const extended = shape('the extend result', object({ proxyRef: optional(str), expiresAt: str, extended: optional(bool) }));
export type ExtendResult = Infer<typeof extended>;
/** The username pin's answer is not specified: an object, or nothing. */
export const usernamePin = shape('the username change', optional(object()));
export const openapi = shape('an OpenAPI description', object());
/** `proxyctl api`: whatever came, as long as it is JSON (or empty). */
export const raw = shape('any JSON', anything);
