// The parts of undici a request needs, and nothing else. `import 'undici'` loads all of it
// (fetch, WebSocket, EventSource, mocks, caches, interceptors: ~110 files, ~60 ms and ~9 MiB
// before the first byte, see bench/RESULTS.md); a command needs the pool, the proxy-aware agent
// and the promise API. undici 7 has no "exports" map, so these paths are reachable; the
// module-loading tests (test/e2e/module-loading.test.ts) and every e2e test use them.
import Module, { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

// llhttp is WebAssembly, compiled when the first connection opens. V8 compiles it twice: quickly
// (Liftoff) and then optimised (TurboFan) in the background, which for a process making a few
// requests costs ~35 MiB of peak memory and ~100 ms of CPU and never pays back (bench/RESULTS.md).
// This process has no other WebAssembly.
setFlagsFromString('--liftoff-only');

const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
// What undici's index.js does on load: request(), connect(), … on every dispatcher (ProxyAgent
// calls connect() on its proxy pool). Skipped when the full undici was loaded first.
if (!Object.hasOwn(Dispatcher.prototype, 'request')) Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));

// undici's HTTP/2 client is used only when TLS negotiates h2, which needs `allowH2` (never set
// here), yet its client requires it, and with it node:http2, ~6 ms and ~2.3 MiB on every run
// (bench/RESULTS.md). A stand-in in the require cache loads the real one on its first call.
const h2Path = require.resolve('undici/lib/dispatcher/client-h2.js');
if (!require.cache[h2Path]) {
  const standIn = new Module(h2Path);
  standIn.filename = h2Path;
  standIn.loaded = true;
  let connectH2: ((...args: unknown[]) => unknown) | undefined;
  standIn.exports = function lazyConnectH2(this: unknown, ...args: unknown[]) {
    if (!connectH2) {
      delete require.cache[h2Path];
      connectH2 = require(h2Path) as (...args: unknown[]) => unknown;
    }
    return connectH2.apply(this, args);
  };
  require.cache[h2Path] = standIn;
}

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
export const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent;
export type { Dispatcher } from 'undici';
// `units check` only: a client over a socket it opened itself (SOCKS5), and the HTTP proxy agent.
export const Client = require('undici/lib/dispatcher/client.js') as typeof Undici.Client;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent;

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
