// One function per API operation the code calls, each naming its path and the shape that checks
// its answer, so no call site spells a path or restates a type. Paths are built here only: a unit's
// is `unitPath(ref)`. Retry policies follow what a repeat would do: reads retry, a request that
// changes something is retried only when it provably never left ('not-sent'), and never twice
// where a repeat would charge or move again (extend, swap, release).
import type { ApiClient, ApiResponse, Query, RequestOptions } from './client.js';
import { fillPath, resolveOperation } from './operations.js';
import * as shapes from './shapes.js';

type ReadOptions = Omit<RequestOptions, 'query'>;

/** `/units/PRX-1`: the one place a unit's path is written. */
export const unitPath = (ref: string) => `/units/${encodeURIComponent(ref)}`;

// Account and catalogue.
export const getAccount = (api: ApiClient, opts?: ReadOptions) => api.get('/account', shapes.account, undefined, opts);
export const readBalance = async (api: ApiClient, opts?: ReadOptions) => (await getAccount(api, opts)).balanceUsd;
export const getSnapshot = (api: ApiClient) => api.get('/me', shapes.snapshot);
export const getUptime = (api: ApiClient, query: Query, opts: ReadOptions = {}) =>
  api.get('/me/uptime', shapes.uptime, query, { budget: 'uptime', ...opts });
export const getPrices = async (api: ApiClient) => (await api.get('/prices', shapes.prices)).prices;
export const getPriceList = (api: ApiClient) => api.get('/prices', shapes.prices);
export const listPools = (api: ApiClient, query?: Query) => api.get('/pools', shapes.poolList, query);
export const getPool = (api: ApiClient, poolId: string) => api.get(`/pools/${encodeURIComponent(poolId)}`, shapes.pool);
export const listCatalogue = (api: ApiClient, path: '/countries' | '/providers' | '/states' | string, query?: Query) =>
  api.get(path, shapes.catalogueList, query);
/**
 * Pins the proxy username for units created from now on (null clears it), at the path the server
 * publishes (resolveOperation). Setting a value is idempotent, so a PUT may be retried like a read;
 * any other method only when the request provably never left.
 */
export async function pinProxyUsername(api: ApiClient, proxyUsername: string | null) {
  const op = await resolveOperation(api, 'pinUsername');
  return api.request(op.method, op.path, shapes.usernamePin, { body: { proxyUsername }, retry: op.method === 'PUT' ? 'read' : 'not-sent' });
}
export const getOpenapi = (api: ApiClient, opts?: ReadOptions) => api.get('/openapi.json', shapes.openapi, undefined, opts);

// Units.
export const getUnit = (api: ApiClient, ref: string, opts?: ReadOptions) => api.get(unitPath(ref), shapes.unit, undefined, opts);
/** Every unit the query selects, page after page. */
export const allUnits = (api: ApiClient, query: Query = {}) => api.all('/units', shapes.unit, query);
export const unitPages = (api: ApiClient, query: Query = {}, opts: { readAhead?: boolean } = {}) =>
  api.pages('/units', shapes.unit, query, opts);
/** POST /units under an idempotency key: sent once, retried only when it never left. */
export const createUnit = (api: ApiClient, body: unknown, idempotencyKey: string) =>
  api.request('POST', '/units', shapes.unit, { body, headers: { 'idempotency-key': idempotencyKey }, retry: 'not-sent' });
/** POST /units/{ref}/extend: extend has no key, so only a request that never left is retried. */
export const extendUnit = (api: ApiClient, ref: string, period: string): Promise<ApiResponse<shapes.ExtendResult>> =>
  api.request('POST', `${unitPath(ref)}/extend`, shapes.extended, { body: { period }, retry: 'not-sent' });
export const swapUnitTo = (api: ApiClient, ref: string, newPoolId: string) =>
  api.request('POST', `${unitPath(ref)}/swap`, shapes.unit, { body: { newPoolId }, retry: 'not-sent' });
/** A unit's traffic usage, at the path the server publishes (resolveOperation). */
export async function getUnitUsage(api: ApiClient, ref: string) {
  const op = await resolveOperation(api, 'unitUsage');
  return (await api.request(op.method, fillPath(op.path, { proxyRef: ref }), shapes.usage)).data;
}
export const modifyUnit = (api: ApiClient, ref: string, body: unknown, opts: Omit<RequestOptions, 'body'> = {}) =>
  api.request('PATCH', unitPath(ref), shapes.modified, { ...opts, body });
export const releaseUnit = (api: ApiClient, ref: string) => api.request('DELETE', unitPath(ref), shapes.removed, { retry: 'not-sent' });
export const changeUnitProtocol = (api: ApiClient, ref: string, body: unknown, opts: Omit<RequestOptions, 'body'> = {}) =>
  api.request('POST', `${unitPath(ref)}/change-protocol`, shapes.unit, { ...opts, body });

// Webhooks.
export const getWebhook = (api: ApiClient) => api.get('/webhook', shapes.webhookConfig);
export const setWebhookUrl = (api: ApiClient, url: string) => api.request('PATCH', '/webhook', shapes.webhookConfig, { body: { url } });
export const disableWebhook = (api: ApiClient) => api.request('PATCH', '/webhook', shapes.webhookDisabled, { body: { url: null } });
export const deleteWebhook = (api: ApiClient) => api.request('DELETE', '/webhook', shapes.webhookDisabled);
/** Sends the test event to the webhook, at the path the server publishes (resolveOperation). */
export async function sendTestEvent(api: ApiClient) {
  const op = await resolveOperation(api, 'webhookTest');
  return api.request(op.method, op.path, shapes.webhookTest);
}
export const getDeliveryPage = (api: ApiClient, query: Query) => api.get('/webhook/deliveries', shapes.deliveryPage, query);
export const deliveryPages = (api: ApiClient, query: Query = {}, opts: { readAhead?: boolean } = {}) =>
  api.pages('/webhook/deliveries', shapes.delivery, query, opts);
