// webhook get: GET /webhook. Tables mask the secret; JSON passes it through as the API sent it.
import type { Input } from './get.command.js';
import type { Context } from '../../context/index.js';
import { assertFormats, printObject } from '../../output/index.js';
import type { WebhookConfig } from '../../webhooks/events.js';
import { rememberedWebhook } from './disabled-webhook.js';
import { configColumns } from './columns.js';
import * as shapes from '../../api/shapes.js';

export async function getWebhook(ctx: Context): Promise<WebhookConfig> {
  const api = await ctx.api();
  return api.get('/webhook', shapes.webhookConfig);
}

export default async function run({ ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const config = await getWebhook(ctx);
  await printObject(ctx, config, { columns: configColumns({ revealSecret: false }) });
  if (!config.url) {
    const { saved } = await rememberedWebhook(ctx, await ctx.api());
    ctx.notice(
      saved
        ? `No webhook is set. To set ${saved.url} again (webhook disable turned it off): proxyctl webhook enable`
        : 'No webhook is set. Set one with: proxyctl webhook set https://…',
    );
  } else if (!config.enabled) ctx.notice('Deliveries are disabled. Enable them again with: proxyctl webhook set URL');
  return 0;
}
