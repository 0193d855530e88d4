// webhook listen: a local receiver, like `stripe listen`. Verifies every delivery against its raw
// body, prints one line (or one JSON line) per delivery, relays to --forward-to, and runs until
// Ctrl-C. Stopping with Ctrl-C exits 130, as every interrupted proxyctl command does: scripts can
// tell "stopped by a signal" from "the receiver failed" (exit 2 for a busy port, 3 without a key).
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context.js';
import { AuthMissingError, UsageError } from '../../errors.js';
import { assertFormats, outputMode, paintFor } from '../../output/index.js';
import { summarizeEvent, type WebhookConfig } from '../../webhooks/events.js';
import { startReceiver, type ReceiverRecord } from '../../webhooks/receiver.js';

interface ListenFlags {
  port: string;
  host: string;
  secret: string[];
  forwardTo?: string;
}

export interface ListenOptions {
  port: number;
  host: string;
  secrets: string[];
  forwardTo: string | undefined;
}

export function parseListenFlags(flags: ListenFlags): ListenOptions {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0 to 65535, got "${flags.port}"`);
  if (flags.secret.some((s) => s === '')) throw new UsageError('--secret must not be empty');
  let forwardTo: string | undefined;
  if (flags.forwardTo !== undefined) {
    let u: URL;
    try {
      u = new URL(flags.forwardTo);
    } catch {
      throw new UsageError(`invalid --forward-to URL "${flags.forwardTo}"`, { hint: 'e.g. http://localhost:3000/hooks' });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--forward-to must be http(s), got "${u.protocol}"`);
    forwardTo = u.toString();
  }
  return { port, host: flags.host, secrets: flags.secret, forwardTo };
}

/** --secret wins; otherwise the account's current secret, which needs API credentials. */
async function resolveSecrets(ctx: Context, given: string[]): Promise<string[]> {
  if (given.length > 0) return given;
  const fromEnv = ctx.io.env.PROXYCTL_WEBHOOK_SECRET;
  if (fromEnv) return [fromEnv];
  const noSecret = 'webhook listen needs the webhook secret to verify deliveries';
  let config: WebhookConfig;
  try {
    config = await (await ctx.api()).get<WebhookConfig>('/webhook');
  } catch (err) {
    if (err instanceof AuthMissingError) {
      throw new UsageError(noSecret, { hint: 'pass --secret S, or set PROXYCTL_BASE_URL and PROXYCTL_API_KEY so it can be read with GET /webhook' });
    }
    throw err;
  }
  if (typeof config.secret !== 'string' || config.secret === '') {
    throw new UsageError(`${noSecret}, and the account has none yet`, { hint: 'run proxyctl webhook set URL first (it prints the secret), or pass --secret S' });
  }
  return [config.secret];
}

export function describeRecord(r: ReceiverRecord, paint: ReturnType<typeof paintFor>): string {
  const time = paint.dim(r.receivedAt.slice(11, 19));
  if (r.type === 'rejected') {
    return [time, paint.red(`✗ ${r.status}`), r.event ?? '-', r.deliveryId ?? '-', paint.red(`rejected: ${r.reason}`)].join('  ');
  }
  const parts = [time, paint.green(`✓ ${r.status}`), r.event ?? '-', r.deliveryId ?? '-', summarizeEvent(r.payload ?? {})];
  if (r.redelivery) parts.push(paint.yellow(`redelivery #${r.seen - 1} of ${r.eventId ?? 'this event'}`));
  if (r.forward) {
    const f = r.forward;
    parts.push(f.status !== undefined ? `→ ${f.status >= 200 && f.status < 300 ? paint.green(String(f.status)) : paint.red(String(f.status))} (${f.ms}ms)` : paint.red(`→ failed: ${f.error}`));
  }
  return parts.join('  ');
}

export default async function run({ flags, ctx }: HandlerInput<ListenFlags>): Promise<number> {
  assertFormats(ctx, ['table', 'jsonl']);
  const opts = parseListenFlags(flags);
  const secrets = await resolveSecrets(ctx, opts.secrets);
  const jsonl = outputMode(ctx) === 'jsonl';
  const paint = paintFor(ctx);
  let received = 0;
  let rejected = 0;
  let receiver;
  try {
    receiver = await startReceiver({
      host: opts.host,
      port: opts.port,
      secrets,
      forwardTo: opts.forwardTo,
      now: () => ctx.now(),
      onRecord: (r) => {
        if (r.type === 'delivery') received += 1;
        else rejected += 1;
        ctx.io.stdout.write(`${jsonl ? JSON.stringify(r) : describeRecord(r, paint)}\n`);
      },
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${opts.port} is already in use on ${opts.host}`, { hint: 'pick another with --port N (0: any free port)' });
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${opts.host}:${opts.port} (${code})`);
    throw err;
  }
  // The address is the one thing a user must see, so it is printed even with --quiet.
  ctx.io.stderr.write(`Listening for webhook deliveries on ${receiver.url} (${secrets.length} secret${secrets.length > 1 ? 's' : ''})\n`);
  ctx.notice(`Point the API at it:  proxyctl webhook set ${receiver.url}`);
  if (opts.forwardTo) ctx.notice(`Relaying valid deliveries to ${opts.forwardTo}`);
  ctx.notice('Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await receiver.close();
  ctx.notice(`Stopped: ${received} deliver${received === 1 ? 'y' : 'ies'} received, ${rejected} rejected.`);
  return 0;
}
