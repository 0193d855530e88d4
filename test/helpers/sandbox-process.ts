// The sandbox as its own process, started through the built binary (`proxyctl sandbox --port 0
// --json`) exactly as a user would; its first stdout line gives the base URL and keys.
import { execa, type ResultPromise } from 'execa';
import { BIN, cleanEnv, NODE, type TempHome } from './cli.js';
import { firstLine } from './streams.js';

export interface RunningSandbox {
  baseUrl: string;
  apiKey: string;
  disabledApiKey: string;
  /** The `proxyctl sandbox` process (to kill -9 it, say). */
  child: ResultPromise;
  stop(): Promise<void>;
}

export async function spawnSandbox(home: TempHome, flags: string[] = []): Promise<RunningSandbox> {
  const child: ResultPromise = execa(NODE, [BIN, 'sandbox', '--port', '0', '--json', ...flags], {
    reject: false,
    stdin: 'ignore',
    env: cleanEnv(home.env),
    extendEnv: true,
    // Only a net for a test that forgets stop(): a describe block sharing one sandbox can run past
    // two minutes on a loaded machine (two npm test at once), and a sandbox killed under it fails
    // every test after with a refused connection.
    timeout: 900_000,
  }) as ResultPromise;
  const info = JSON.parse(await firstLine(child)) as { baseUrl: string; apiKey: string; disabledApiKey: string };
  return {
    ...info,
    child,
    async stop() {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/** X-RateLimit-Remaining right now, as seen by one extra request: proves what a command sent. */
export async function remaining(sb: RunningSandbox): Promise<number> {
  const r = await fetch(`${sb.baseUrl}/api/reseller/v1/account`, { headers: { 'x-api-key': sb.apiKey } });
  await r.arrayBuffer();
  return Number(r.headers.get('x-ratelimit-remaining'));
}

/** The sandbox's whole state (control endpoint). */
export async function sandboxState(sb: RunningSandbox): Promise<Record<string, unknown>> {
  const r = await fetch(`${sb.baseUrl}/_sandbox/state`, { headers: { 'x-api-key': sb.apiKey } });
  return (await r.json()) as Record<string, unknown>;
}
