// webhook set URL: PATCH /webhook { url }. The API returns the secret once; we show it once, say
// so, and put it in the JSON output for scripts.
import { setWebhookUrl } from '../../api/endpoints.js';
import type { Input } from './set.command.js';
import { emit, finished, show, type Result } from '../../kit/action.js';
import { isLoopbackHost } from '../../api/index.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import type { WebhookConfig } from '../../webhooks/events.js';
import { configColumns } from './columns.js';

export interface SetOptions {
  url: string;
  /** http to this machine: allowed, with a warning. */
  plainLoopback: boolean;
}

/** https anywhere; http only to a loopback host (a local receiver); anything else is exit 2. */
export function parseWebhookUrl(raw: string): SetOptions {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid webhook URL "${raw}"`, { hint: 'expected an absolute URL such as https://hooks.example.com/proxy' });
  }
  if (url.protocol === 'https:') return { url: raw, plainLoopback: false };
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { url: raw, plainLoopback: true };
  if (url.protocol === 'http:') {
    throw new UsageError(`webhook URLs must use https (got http://${url.host})`, {
      hint: 'plain http is accepted only for 127.0.0.1 or localhost, e.g. a proxyctl webhook listen receiver',
    });
  }
  throw new UsageError(`webhook URLs must use https, got "${url.protocol}"`);
}

export async function setWebhook(ctx: Context, opts: SetOptions): Promise<WebhookConfig> {
  const api = await ctx.api();
  const res = await setWebhookUrl(api, opts.url);
  return res.data;
}

/**
 * Sets the URL and shows what the API answered, the new secret in full, once, then says so
 * (`set`, and `enable` when it sets the remembered URL). Returns the exit code.
 */
export async function setAndShow(ctx: Context, url: string): Promise<number> {
  const opts = parseWebhookUrl(url);
  if (opts.plainLoopback) ctx.warn('plain http to this machine: fine for a local receiver, never for production (use https)');
  const config = await setWebhook(ctx, opts);
  await emit(ctx, show(config, { columns: configColumns({ revealSecret: true }) }));
  if (typeof config.secret === 'string' && config.secret !== '') {
    ctx.notice('Store this secret now: it signs every delivery (X-Service-Signature) and is shown only once.');
  }
  return finished(ctx);
}

export default async function handler({ args: [url], ctx }: Input): Promise<Result> {
  return setAndShow(ctx, url);
}
