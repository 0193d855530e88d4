// webhook disable: PATCH /webhook { url: null } stops deliveries, and the API then forgets the URL
// and the secret. So the URL is read first and remembered in the profile, for `webhook enable`.
// --remove is `webhook delete`, under its older name.
import { disableWebhook } from '../../api/endpoints.js';
import type { Input } from './disable.command.js';
import { emit, finished, type Result } from '../../kit/action.js';
import type { WebhookConfig } from '../../webhooks/events.js';
import { deleteWebhook } from './delete.js';
import { getWebhook, showConfig } from './get.js';
import { rememberWebhook } from './disabled-webhook.js';

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  if (flags.remove) return deleteWebhook(ctx);
  const api = await ctx.api();
  const { url } = await getWebhook(ctx);
  // Remembered before the PATCH: if the profile cannot be written, nothing is lost yet.
  if (url) await rememberWebhook(ctx, api, url);
  const res = await disableWebhook(api);
  await emit(ctx, showConfig((res.data ?? { enabled: false }) as WebhookConfig));
  ctx.notice(
    url
      ? `Webhook deliveries disabled. To send them to ${url} again: proxyctl webhook enable (it issues a new secret).`
      : 'Webhook deliveries disabled (no URL was set, so none is remembered).',
  );
  return finished(ctx);
}
