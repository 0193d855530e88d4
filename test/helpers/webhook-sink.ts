// A webhook receiver for tests (not the real one in src/webhooks/receiver.ts): the scripted server,
// recording each delivery's headers and exact body and answering with the status the test sets.
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { startScriptedServer } from './scripted-server.js';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The body as text. */
  raw: string;
  /** The body's exact bytes. */
  bytes: Buffer;
  at: number;
}

export interface WebhookSink {
  /** The URL to point a webhook at (path /hook). */
  url: string;
  received: Received[];
  /** Status for the next answers (default 200); 'hang' never answers. */
  respond: number | 'hang';
  close(): Promise<void>;
}

export async function startWebhookSink(respond: number | 'hang' = 200): Promise<WebhookSink> {
  const received: Received[] = [];
  const sink: WebhookSink = { url: '', received, respond, close: async () => {} };
  const server = await startScriptedServer((req, res) => {
    received.push({ headers: req.headers, raw: req.body, bytes: req.bytes, at: req.at });
    if (sink.respond === 'hang') return;
    res.writeHead(sink.respond).end();
  });
  sink.url = `${server.url}/hook`;
  sink.close = server.close;
  return sink;
}

/** The X-Service-Signature value for a body, computed here with node:crypto (independently of src/webhooks). */
export const signature = (body: string | Buffer, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Re-checks `cond` every 10 ms until it holds; fails after `timeoutMs` (a bound on a hang, not a timed assertion). */
export async function pollUntil(cond: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
