// The sandbox: a faithful local Reseller API on node:http. `startSandbox` is the library entry
// used by `proxyctl sandbox`, by tests (in-process) and by `npm run demo`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseFaults, type Faults } from './faults.js';
import { dumpState } from './routes/control.js';
import { RequestPipeline } from './server.js';
import { resolveOptions, World, type SandboxOptions } from './world.js';
import { loopbackAliases, ProxyHub } from './proxies/hub.js';

export type { SandboxOptions } from './world.js';
export type { Faults } from './faults.js';
export { DEFAULT_API_KEY, DEFAULT_DISABLED_API_KEY } from './world.js';
export { signBody, RETRY_DELAYS_SECONDS, MAX_ATTEMPTS } from './webhooks.js';

export interface Sandbox {
  /** e.g. http://127.0.0.1:43123 (without /api/reseller/v1). */
  baseUrl: string;
  apiKey: string;
  disabledApiKey: string;
  host: string;
  port: number;
  /** Internals for in-process assertions: state, clock, catalogue, deliverer. */
  world: World;
  /** The body of GET /_sandbox/state: now, balanceUsd, units (all), deliveries, idempotency, webhook. */
  state(): Record<string, unknown>;
  /** Arms faults like POST /_sandbox/faults (merged into those armed); returns what is armed. */
  faults(f: Faults): Faults;
  /** Moves the sandbox clock forward and fires the webhook retries that became due. */
  advance(seconds: number): void;
  /** Resolves once no webhook attempt is in progress. */
  deliveriesIdle(): Promise<void>;
  /** The requests received so far (the last 1,000), oldest first: for tests that count them. */
  requestLog(): readonly LoggedRequest[];
  close(): Promise<void>;
}

export interface LoggedRequest {
  method: string;
  /** The path and query as sent. */
  url: string;
}

const REQUEST_LOG_SIZE = 1000;

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const o = resolveOptions(opts);
  const perPool = o.proxies && (await loopbackAliases());
  const world = new World(o, perPool);
  if (o.proxies) world.proxies = new ProxyHub(world, perPool, o.maxProxies);
  const pipeline = new RequestPipeline(world);
  const log: LoggedRequest[] = [];
  const server: Server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    log.push({ method: req.method ?? '', url: req.url ?? '' });
    if (log.length > REQUEST_LOG_SIZE) log.shift();
    pipeline.handle(req, res);
  });
  server.on('clientError', pipeline.clientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  world.deliverer.recheck();
  // A restarted sandbox listens again for the ACTIVE units it restored (their ports may change).
  if (world.proxies && world.state.units.size > 0) {
    await world.proxies.restore();
    world.persist();
  }
  const { port } = server.address() as AddressInfo;
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host === '0.0.0.0' ? '127.0.0.1' : o.host;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `http://${hostForUrl}:${port}`,
    apiKey: o.apiKey,
    disabledApiKey: o.disabledApiKey,
    host: o.host,
    port,
    world,
    state: () => dumpState(world).body as Record<string, unknown>,
    faults(f) {
      pipeline.faults.current = parseFaults(f as unknown as Record<string, unknown>, pipeline.faults.current, pipeline.faultOps);
      return pipeline.faults.current;
    },
    advance(seconds) {
      world.clock.advance(seconds);
      world.deliverer.recheck();
    },
    deliveriesIdle: () => world.deliverer.idle(),
    requestLog: () => [...log],
    close() {
      closed ??= new Promise<void>((resolve) => {
        world.deliverer.close();
        const api = new Promise<void>((r) => server.close(() => r()));
        server.closeAllConnections();
        void Promise.all([api, world.proxies?.close()]).then(() => resolve());
      });
      return closed;
    },
  };
}
