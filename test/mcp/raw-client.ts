// `proxyctl mcp` (the built binary) driven by hand over its stdio, as a client that writes whatever
// it likes: raw lines, broken JSON, huge messages. Every line the server writes is kept; a line that
// is not a JSON-RPC 2.0 message is kept apart, so a test can say stdout held nothing else. The peak
// memory of the server's process is read from /proc (VmHWM).
import { readFileSync } from 'node:fs';
import type { Kit } from '../helpers/index.js';

export interface RpcMessage {
  jsonrpc: string;
  id?: string | number | null;
  method?: string;
  result?: Record<string, unknown> & { structuredContent?: Record<string, unknown>; isError?: boolean; content?: { text: string }[] };
  error?: { code: number; message: string; data?: unknown };
}

export interface RawMcp {
  /** Every JSON-RPC message the server wrote, in order. */
  messages: RpcMessage[];
  /** Lines on stdout that were not a JSON-RPC 2.0 message. */
  strays: string[];
  stderr(): string;
  /** Writes a message (an object is serialised) and a newline. */
  send(message: unknown): Promise<void>;
  /** Writes bytes as they are, waiting for the pipe to take them. */
  write(chunk: string | Buffer): Promise<void>;
  /** The message written after the first `n` (waits for it). */
  after(n: number): Promise<RpcMessage>;
  /** The answer to the request with this id (waits for it). */
  answer(id: string | number | null, nth?: number): Promise<RpcMessage>;
  /** initialize, then notifications/initialized. */
  initialize(id?: number): Promise<RpcMessage>;
  /** A tools/call's answer. */
  call(id: number, name: string, args?: unknown): Promise<RpcMessage>;
  /** The server process's peak resident memory so far, in MB (Linux: VmHWM). */
  peakRssMb(): number;
  /** Closes stdin and waits for the exit. */
  end(): Promise<{ exitCode: number | undefined; stdout: string }>;
  child: ReturnType<Kit['run']>;
}

export const INIT = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'raw', version: '1' },
};

export function rawMcp(kit: Kit, args: string[] = []): RawMcp {
  const child = kit.run(['mcp', ...args], { stdin: 'pipe', timeout: 120_000 });
  const messages: RpcMessage[] = [];
  const strays: string[] = [];
  let buf = '';
  let err = '';
  let exited = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        const m = JSON.parse(line) as RpcMessage;
        if (m && typeof m === 'object' && m.jsonrpc === '2.0') messages.push(m);
        else strays.push(line);
      } catch {
        strays.push(line);
      }
    }
    wake();
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  child.once('exit', () => {
    exited = true;
    wake();
  });
  const until = async (found: () => RpcMessage | undefined, what: string): Promise<RpcMessage> => {
    for (;;) {
      const m = found();
      if (m) return m;
      if (exited) throw new Error(`the server exited (${child.exitCode}) before ${what}; stderr: ${err}`);
      await new Promise<void>((resolve) => {
        const w = () => {
          waiters.delete(w);
          resolve();
        };
        waiters.add(w);
      });
    }
  };
  const write = (chunk: string | Buffer) =>
    new Promise<void>((resolve, reject) => {
      child.stdin!.write(chunk, (e) => (e ? reject(e) : resolve()));
    });
  const answer = (id: string | number | null, nth = 0) =>
    until(() => messages.filter((m) => m.id === id && !('method' in m))[nth], `answering ${JSON.stringify(id)}`);
  const send = (m: unknown) => write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`);
  return {
    messages,
    strays,
    after: (n) => until(() => messages[n], `message #${n + 1}`),
    stderr: () => err,
    send,
    write,
    answer,
    async initialize(id = 0) {
      await send({ jsonrpc: '2.0', id, method: 'initialize', params: INIT });
      const a = await answer(id);
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return a;
    },
    async call(id, name, args = {}) {
      await send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
      return answer(id);
    },
    peakRssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
      return kb / 1024;
    },
    async end() {
      child.stdin!.end();
      const r = await child;
      return { exitCode: r.exitCode, stdout: String(r.stdout) };
    },
    child,
  };
}

/** The error object of an isError tool result. */
export function toolError(m: RpcMessage): { code: string; message: string; exitCode: number; hint?: string } {
  if (!m.result?.isError) throw new Error(`expected an isError result, got ${JSON.stringify(m)}`);
  return (JSON.parse(m.result.content![0]!.text) as { error: { code: string; message: string; exitCode: number; hint?: string } }).error;
}
