// The server's side of the stdio transport: one JSON-RPC message a line on stdin, one a line on
// stdout. The SDK's own StdioServerTransport drops what it cannot parse without a word (a client
// waits forever), and ends the server on a line longer than its buffer (a call in flight is never
// answered). This one reads the lines itself and answers every message that is not one the SDK
// can take, as JSON-RPC says:
//
// - not JSON (or cut short): -32700, id null;
// - JSON but not a request, notification or response (an array, "jsonrpc":"1.0", no method,
//   id null, a non-object): -32600, with the message's id when it has a usable one;
// - a request before initialize (ping aside), or a second initialize: -32600, with its id;
// - a known method's params that do not fit (tools/call's arguments as a string): -32602, with
//   what is wrong in words;
// - a line over the size bound: -32600 with the id read from the line as it streams past (never
//   held: only its first `maxLineBytes` are buffered, the rest is scanned and dropped), and the
//   next line is read as usual.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The longest line read as a message (the SDK's own bound); a longer one is refused and skipped. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** What validates a message the SDK is handed: the SDK's own schemas (types.js), given by the server. */
export interface Schemas {
  JSONRPCMessageSchema: Checker;
  /** The params of the methods this server answers, by method. */
  params: Record<string, Checker>;
}

interface Issue {
  path: PropertyKey[];
  message: string;
}
interface Checker {
  safeParse(v: unknown): { success: true } | { success: false; error: { issues: Issue[] } };
}

type Refusal = { code: number; message: string; id: RequestId | null };

const isId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describeIssues(issues: Issue[], root: string): string {
  return issues
    .slice(0, 5)
    .map(
      (i) =>
        `${[...(root ? [root] : []), ...i.path.map(String)].join('.') || 'message'}: ${i.message.replace('expected record', 'expected object')}`,
    )
    .join('; ');
}

/**
 * The top-level `"id"` of a JSON object read byte by byte, keeping only a few bytes of state: how
 * an over-long line's request is still answered with its own id. An SDK client writes the id last.
 */
export class IdSniffer {
  private depth = 0;
  private started = false;
  private dead = false;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private key: string | undefined;
  private lastKey = '';
  private valueOfId = false;
  private raw = '';
  private found: string | undefined;

  feed(bytes: Uint8Array): void {
    for (const b of bytes) {
      if (this.dead) return;
      this.step(b);
    }
  }

  private step(b: number): void {
    const capturing = this.valueOfId && this.depth === 1;
    if (this.inString) {
      if (capturing) this.capture(b);
      if (this.key !== undefined && !this.escaped && b !== 0x22 && this.key.length < 3) this.key += String.fromCharCode(b);
      if (this.escaped) this.escaped = false;
      else if (b === 0x5c) this.escaped = true;
      else if (b === 0x22) {
        this.inString = false;
        if (this.key !== undefined) {
          this.lastKey = this.key;
          this.key = undefined;
        }
      }
      return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) return;
    if (!this.started) {
      this.started = true;
      if (b === 0x7b) {
        this.depth = 1;
        this.expectKey = true;
      } else this.dead = true;
      return;
    }
    switch (b) {
      case 0x22: // "
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.key = '';
        else if (capturing) this.capture(b);
        return;
      case 0x7b: // {
      case 0x5b: // [
        if (capturing) this.raw = '\u0000'; // an object or array is no id
        this.depth++;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        if (this.depth === 1) this.endValue();
        this.depth--;
        if (this.depth === 0) this.dead = true;
        return;
      case 0x3a: // :
        if (this.depth === 1) {
          this.expectKey = false;
          this.valueOfId = this.lastKey === 'id';
          if (this.valueOfId) this.raw = '';
        }
        return;
      case 0x2c: // ,
        if (this.depth === 1) {
          this.endValue();
          this.expectKey = true;
        }
        return;
      default:
        if (capturing) this.capture(b);
    }
  }

  private capture(b: number): void {
    // An id longer than this is not worth echoing (and not held).
    if (this.raw.length < 256) this.raw += String.fromCharCode(b);
    else this.raw = '\u0000';
  }

  private endValue(): void {
    if (this.valueOfId) this.found = this.raw;
    this.valueOfId = false;
  }

  /** The id, when the bytes read so far gave one that is a string or an integer. */
  id(): RequestId | null {
    if (this.found === undefined) return null;
    try {
      // The bytes were kept one char per byte: a string id is re-read as UTF-8.
      const v: unknown = JSON.parse(Buffer.from(this.found, 'latin1').toString('utf8'));
      return isId(v) ? v : null;
    } catch {
      return null;
    }
  }
}

export interface StdioOptions {
  schemas: Schemas;
  maxLineBytes?: number;
  /** A line for stderr about a message refused (the client gets the error itself). */
  log?: (line: string) => void;
}

export class GuardedStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  private readonly max: number;
  /** The current line's bytes so far (at most `max` of them). */
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while the rest of an over-long line streams past: its id is all that is read of it. */
  private skipping: IdSniffer | undefined;
  /** A well-formed initialize has been received: other requests may follow it (pipelined). */
  private initialized = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly opts: StdioOptions,
  ) {
    this.max = opts.maxLineBytes ?? MAX_LINE_BYTES;
  }

  private readonly ondata = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    try {
      this.read(buf);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  };
  private readonly onstreamerror = (err: Error) => this.onerror?.(err);

  async start(): Promise<void> {
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstreamerror);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstreamerror);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private read(buf: Buffer): void {
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(0x0a, start);
      const end = nl === -1 ? buf.length : nl;
      const piece = buf.subarray(start, end);
      if (this.skipping) this.skipping.feed(piece);
      else if (this.size + piece.length > this.max) {
        // Over the bound: what was kept goes to the sniffer, and so does the rest as it comes.
        const sniffer = new IdSniffer();
        for (const c of this.chunks) sniffer.feed(c);
        sniffer.feed(piece);
        this.chunks = [];
        this.size = 0;
        this.skipping = sniffer;
      } else if (piece.length > 0) {
        // A copy: the stream may reuse its chunk's memory.
        this.chunks.push(nl === -1 ? Buffer.from(piece) : piece);
        this.size += piece.length;
      }
      if (nl === -1) return;
      start = nl + 1;
      this.endLine();
    }
  }

  private endLine(): void {
    if (this.skipping) {
      const id = this.skipping.id();
      this.skipping = undefined;
      this.refuse({
        code: INVALID_REQUEST,
        message: `Invalid Request: a message longer than ${this.max / 1024 / 1024} MiB is refused; nothing of it was run`,
        id,
      });
      return;
    }
    const line = (this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks)).toString('utf8');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    const checked = this.check(line);
    if ('code' in checked) this.refuse(checked);
    else this.onmessage?.(checked.message);
  }

  private refuse(r: Refusal): void {
    this.opts.log?.(`mcp: refused a message (${r.code}): ${r.message}`);
    void this.send({ jsonrpc: '2.0', id: r.id as RequestId, error: { code: r.code, message: r.message } });
  }

  /** The message the SDK may take, or the refusal to answer instead. */
  private check(line: string): { message: JSONRPCMessage } | Refusal {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch (err) {
      return { code: PARSE_ERROR, message: `Parse error: ${(err as Error).message}`, id: null };
    }
    if (Array.isArray(m))
      return { code: INVALID_REQUEST, message: 'Invalid Request: batches (JSON arrays) are not taken; send one message a line', id: null };
    if (!isObject(m)) return { code: INVALID_REQUEST, message: 'Invalid Request: a message is a JSON object', id: null };
    const id = isId(m.id) ? m.id : null;
    const bad = (why: string): Refusal => ({ code: INVALID_REQUEST, message: `Invalid Request: ${why}`, id });
    if (m.jsonrpc !== '2.0') return bad('"jsonrpc" must be "2.0"');
    const isResponse = !('method' in m) && ('result' in m || 'error' in m);
    if (!isResponse) {
      if (typeof m.method !== 'string' || m.method === '') return bad('"method" must be a non-empty string');
      if ('id' in m && !isId(m.id)) return bad('"id" must be a string or an integer (null is not an id)');
      if ('params' in m && !isObject(m.params)) return bad('"params" must be an object');
    } else if (!isId(m.id)) return bad('a response needs the id of the request it answers');
    const shape = this.opts.schemas.JSONRPCMessageSchema.safeParse(m);
    if (!shape.success) return bad(describeIssues(shape.error.issues, 'message'));
    const message = m as JSONRPCMessage;
    // Notifications and responses go through as they are; requests meet the session's rules.
    if (isResponse || !('id' in m)) return { message };
    const method = m.method as string;
    if (method === 'initialize' && this.initialized)
      return bad('the session is already initialized; a second initialize is refused (start a new server to start over)');
    if (method !== 'initialize' && method !== 'ping' && !this.initialized)
      return bad(`"${method}" before initialize: send initialize first`);
    const params = this.opts.schemas.params[method];
    if (params) {
      const p = params.safeParse(m);
      if (!p.success) return { code: INVALID_PARAMS, message: `Invalid params for ${method}: ${describeIssues(p.error.issues, '')}`, id };
    }
    if (method === 'initialize') this.initialized = true;
    return { message };
  }
}
