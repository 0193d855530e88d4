import { getWebhook as readWebhook } from '../../api/endpoints.js';
import type { Input } from './get.command.js';
import { emit, finished, show, type Result, type Shown } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import type { WebhookConfig } from '../../webhooks/events.js';
import { rememberedWebhook } from './disabled-webhook.js';
import { configColumns } from './columns.js';

export async function getWebhook(ctx: Context): Promise<WebhookConfig> {
  const api = await ctx.api();
  return readWebhook(api);
}

/** A webhook as `get`, `disable`, `delete` and an unchanged `enable` show it: the secret masked. */
export function showConfig(config: WebhookConfig): Shown {
  return show(config, { columns: configColumns({ revealSecret: false }) });
}

// Printed before the notice on what to do next, so a terminal reads the webhook first.
export default async function handler({ ctx }: Input): Promise<Result> {
  const config = await getWebhook(ctx);
  await emit(ctx, showConfig(config));
  if (!config.url) {
    const { saved } = await rememberedWebhook(ctx, await ctx.api());
    ctx.notice(
      saved
        ? `No webhook is set. To set ${saved.url} again (webhook disable turned it off): proxyctl webhook enable`
        : 'No webhook is set. Set one with: proxyctl webhook set https://…',
    );
  } else if (!config.enabled) ctx.notice('Deliveries are disabled. Enable them again with: proxyctl webhook set URL');
  return finished(ctx);
}
