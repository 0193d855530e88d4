// The route tables: the API of spec §4 (with the contract's default paths for the three
// operations the spec leaves unshown, or alternative paths with `altPaths`) and /_sandbox/.
import type { Route } from '../router.js';
import { account, me, pinUsername, uptime } from './account.js';
import { countries, getPool, listPools, prices, providers, states } from './catalogue.js';
import { advance, dumpState, setBalance, trigger } from './control.js';
import { changeProtocol, extendUnit, swapUnit, unitUsage } from './unit-actions.js';
import { createUnit, getUnit, listUnits, modifyUnit, releaseUnit } from './units.js';
import { deleteWebhook, getWebhook, listDeliveries, setWebhook, testWebhook } from './webhook.js';

/** Where the three unpublished operations live: the contract's defaults, or the alternatives. */
export const UNSHOWN_PATHS = {
  default: {
    pin: { method: 'PUT', path: '/me/proxy-username' },
    usage: { method: 'GET', path: '/units/{proxyRef}/usage' },
    test: { method: 'POST', path: '/webhook/test' },
  },
  alt: {
    pin: { method: 'POST', path: '/account/fixed-login' },
    usage: { method: 'GET', path: '/units/{proxyRef}/traffic' },
    test: { method: 'POST', path: '/webhook/send-test' },
  },
} as const;

export function apiRoutes(altPaths: boolean): Route[] {
  const u = altPaths ? UNSHOWN_PATHS.alt : UNSHOWN_PATHS.default;
  return [
    { method: 'GET', path: '/me', op: 'getAccountSnapshot', handler: me },
    { method: 'GET', path: '/account', op: 'getAccountBalance', handler: account },
    { method: 'GET', path: '/me/uptime', op: 'getUptime', handler: uptime },
    { method: u.pin.method, path: u.pin.path, op: 'setProxyUsername', handler: pinUsername },
    { method: 'GET', path: '/prices', op: 'getPrices', handler: prices },
    { method: 'GET', path: '/pools', op: 'listPools', handler: listPools },
    { method: 'GET', path: '/pools/{poolId}', op: 'getPool', handler: getPool },
    { method: 'GET', path: '/providers', op: 'listProviders', handler: providers },
    { method: 'GET', path: '/countries', op: 'listCountries', handler: countries },
    { method: 'GET', path: '/states', op: 'listStates', handler: states },
    { method: 'GET', path: '/units', op: 'listUnits', handler: listUnits },
    { method: 'POST', path: '/units', op: 'createUnit', handler: createUnit },
    { method: 'GET', path: '/units/{proxyRef}', op: 'getUnit', handler: getUnit },
    { method: 'PATCH', path: '/units/{proxyRef}', op: 'modifyUnit', handler: modifyUnit },
    { method: 'DELETE', path: '/units/{proxyRef}', op: 'releaseUnit', handler: releaseUnit },
    { method: 'POST', path: '/units/{proxyRef}/extend', op: 'extendUnit', handler: extendUnit },
    { method: 'POST', path: '/units/{proxyRef}/swap', op: 'swapUnit', handler: swapUnit },
    { method: 'POST', path: '/units/{proxyRef}/change-protocol', op: 'changeUnitProtocol', handler: changeProtocol },
    { method: u.usage.method, path: u.usage.path, op: 'getUnitUsage', handler: unitUsage },
    { method: 'GET', path: '/webhook', op: 'getWebhook', handler: getWebhook },
    { method: 'PATCH', path: '/webhook', op: 'setWebhook', handler: setWebhook },
    { method: 'DELETE', path: '/webhook', op: 'deleteWebhook', handler: deleteWebhook },
    { method: 'GET', path: '/webhook/deliveries', op: 'listWebhookDeliveries', handler: listDeliveries },
    { method: u.test.method, path: u.test.path, op: 'testWebhook', handler: testWebhook },
  ];
}

/** Faults are handled by the server itself (they live beside the sockets). */
export function controlRoutes(): Route[] {
  return [
    { method: 'POST', path: '/trigger', op: 'sandboxTrigger', handler: trigger },
    { method: 'POST', path: '/advance', op: 'sandboxAdvance', handler: advance },
    { method: 'GET', path: '/state', op: 'sandboxState', handler: dumpState },
    { method: 'POST', path: '/balance', op: 'sandboxSetBalance', handler: setBalance },
  ];
}
