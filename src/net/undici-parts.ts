// The parts of undici a request needs, and nothing else. `import 'undici'` loads all of it
// (fetch, WebSocket, EventSource, mocks, caches, interceptors), paid in time and memory before
// the first byte (bench/RESULTS.md); a command needs the pool, the proxy-aware agent and the
// promise API. undici 7 has no "exports" map, so these paths are reachable; the build
// bundles them (scripts/build.mjs), pinning undici's internal layout at build time, and makes its
// HTTP/2 client load on first use (see there). src/types/undici-lib.d.ts types the paths.
import type * as Undici from 'undici';
import DispatcherBase from 'undici/lib/dispatcher/dispatcher.js';
import promiseApi from 'undici/lib/api/index.js';
import PoolImpl from 'undici/lib/dispatcher/pool.js';
import EnvHttpProxyAgentImpl from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import ClientImpl from 'undici/lib/dispatcher/client.js';
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent.js';

// What undici's index.js does on load: request(), connect(), … on every dispatcher (ProxyAgent
// calls connect() on its proxy pool). Skipped when the full undici was loaded first.
if (!Object.hasOwn(DispatcherBase.prototype, 'request')) Object.assign(DispatcherBase.prototype, promiseApi);

export const Pool = PoolImpl as typeof Undici.Pool;
export const EnvHttpProxyAgent = EnvHttpProxyAgentImpl as typeof Undici.EnvHttpProxyAgent;
export type { Dispatcher } from 'undici';
// `units check` only: a client over a socket it opened itself (SOCKS5), and the HTTP proxy agent.
export const Client = ClientImpl as typeof Undici.Client;
export const ProxyAgent = ProxyAgentImpl as typeof Undici.ProxyAgent;

/**
 * A pool to a proxy whose CONNECTs (ProxyAgent opens its tunnels with the promise form) pass
 * through `tunnel`, for the transport and `units check` to time, record and re-code them.
 */
export class TunnelPool extends Pool {
  protected tunnel(opening: Promise<Undici.Dispatcher.ConnectData>): Promise<Undici.Dispatcher.ConnectData> {
    return opening;
  }
  override connect(opts: Undici.Dispatcher.ConnectOptions): Promise<Undici.Dispatcher.ConnectData>;
  override connect(
    opts: Undici.Dispatcher.ConnectOptions,
    callback: (err: Error | null, data: Undici.Dispatcher.ConnectData) => void,
  ): void;
  override connect(
    opts: Undici.Dispatcher.ConnectOptions,
    callback?: (err: Error | null, data: Undici.Dispatcher.ConnectData) => void,
    // biome-ignore lint/suspicious/noConfusingVoidType: the implementation of undici's overloads (promise, or void with a callback)
  ): Promise<Undici.Dispatcher.ConnectData> | void {
    if (callback) return super.connect(opts, callback);
    return this.tunnel(super.connect(opts));
  }
}
