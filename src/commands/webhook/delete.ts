import { deleteWebhook as deleteWebhookConfig } from '../../api/endpoints.js';
import type { Input } from './delete.command.js';
import { emit, finished, type Result } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import type { WebhookConfig } from '../../webhooks/events.js';
import { getWebhook, showConfig } from './get.js';
import { forgetWebhook, rememberedWebhook } from './disabled-webhook.js';

/** Deletes the webhook, shows what the API answered and names what went. Returns the exit code. */
export async function deleteWebhook(ctx: Context): Promise<number> {
  const api = await ctx.api();
  const { url } = await getWebhook(ctx);
  const res = await deleteWebhookConfig(api);
  const { saved } = await rememberedWebhook(ctx, api);
  await forgetWebhook(ctx, api);
  await emit(ctx, showConfig((res.data ?? { enabled: false }) as WebhookConfig));
  const removed = url ? `Webhook deleted: ${url} and its secret removed.` : 'Webhook deleted (no URL was set).';
  const forgot = saved && saved.url !== url ? ` Forgot ${saved.url}, which webhook disable had remembered.` : '';
  ctx.notice(removed + forgot);
  return finished(ctx);
}

export default async function handler({ ctx }: Input): Promise<Result> {
  return deleteWebhook(ctx);
}
