// Runs `proxyctl webhook listen` (the built binary) and reads what it prints: the port from the
// stderr banner, one JSON object per stdout line with -o jsonl.
import { proxyctl, type TempHome } from './cli.js';

export interface ListenProcess {
  url: string;
  port: number;
  records: Record<string, unknown>[];
  stderr(): string;
  waitFor(pred: (r: Record<string, unknown>) => boolean, what: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Ctrl-C; resolves with the exit code. */
  stop(): Promise<{ exitCode: number | undefined; stderr: string }>;
  /** Resolves once stderr shows `text` (the test timeout bounds it). */
  stderrUntil(text: string | RegExp): Promise<void>;
  /** Sends a signal without waiting for the exit (e.g. Ctrl-C twice). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves once the process has ended. */
  exited(): Promise<{ exitCode: number | undefined; stderr: string }>;
}

export async function spawnListen(args: string[], home: TempHome, env: Record<string, string> = {}): Promise<ListenProcess> {
  const child = proxyctl(['webhook', 'listen', '--port', '0', '-o', 'jsonl', ...args], { home, env, timeout: 120_000 });
  const records: Record<string, unknown>[] = [];
  let err = '';
  let buffered = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (c: Buffer) => {
    buffered += c.toString('utf8');
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      records.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
      buffered = buffered.slice(nl + 1);
    }
    for (const w of waiters) w();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`listen did not start: ${err}`)), 15_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      for (const w of waiters) w();
      const m = /Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    void child.then((r) => reject(new Error(`listen exited ${r.exitCode}: ${err}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    records,
    stderr: () => err,
    waitFor(pred, what, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = records.find(pred);
          if (!hit) return;
          waiters.delete(check);
          clearTimeout(t);
          resolve(hit);
        };
        const t = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(records)}\nstderr: ${err}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      child.kill('SIGINT');
      const r = await child;
      return { exitCode: r.exitCode, stderr: err };
    },
    stderrUntil(text) {
      return new Promise((resolve) => {
        const check = () => {
          if (typeof text === 'string' ? err.includes(text) : text.test(err)) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    },
    kill(signal) {
      child.kill(signal);
    },
    async exited() {
      const r = await child;
      return { exitCode: r.exitCode, stderr: err };
    },
  };
}

/** A port free right now on 127.0.0.1 (for a listener the webhook must point at before it starts). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as import('node:net').AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Points the sandbox's webhook at http://127.0.0.1:PORT/ with PATCH /webhook; the secret it issues. */
export async function pointWebhookAt(sb: { baseUrl: string; apiKey: string }, port: number): Promise<string> {
  const patched = await fetch(`${sb.baseUrl}/api/reseller/v1/webhook`, {
    method: 'PATCH',
    headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/` }),
  });
  return ((await patched.json()) as { secret: string }).secret;
}
