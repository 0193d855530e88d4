// webhook delete (also `disable --remove`): DELETE /webhook removes the URL and the secret, and
// the URL `webhook disable` remembered for this API is forgotten too. Both are named, so nothing
// goes unseen.
import type { Input } from './delete.command.js';
import * as shapes from '../../api/shapes.js';
import type { Context } from '../../context/index.js';
import { assertFormats, printObject } from '../../output/index.js';
import type { WebhookConfig } from '../../webhooks/events.js';
import { getWebhook } from './get.js';
import { forgetWebhook, rememberedWebhook } from './disabled-webhook.js';
import { configColumns } from './columns.js';

export async function deleteWebhook(ctx: Context): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const api = await ctx.api();
  const { url } = await getWebhook(ctx);
  const res = await api.request('DELETE', '/webhook', shapes.webhookDisabled);
  const { saved } = await rememberedWebhook(ctx, api);
  await forgetWebhook(ctx, api);
  await printObject(ctx, (res.data ?? { enabled: false }) as WebhookConfig, { columns: configColumns({ revealSecret: false }) });
  const removed = url ? `Webhook deleted: ${url} and its secret removed.` : 'Webhook deleted (no URL was set).';
  const forgot = saved && saved.url !== url ? ` Forgot ${saved.url}, which webhook disable had remembered.` : '';
  ctx.notice(removed + forgot);
  return 0;
}

export default async function run({ ctx }: Input): Promise<number> {
  return deleteWebhook(ctx);
}
