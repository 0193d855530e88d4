// webhook disable: PATCH /webhook { url: null } stops deliveries; --remove sends DELETE, which
// also forgets the URL and the secret.
import type { Input } from './disable.command.js';
import { assertFormats, printObject } from '../../output/index.js';
import type { WebhookConfig } from '../../webhooks/events.js';
import { configColumns } from './views.js';
import * as shapes from '../../api/shapes.js';

export default async function run({ flags, ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const api = await ctx.api();
  const res = flags.remove
    ? await api.request<Partial<WebhookConfig>>('DELETE', '/webhook', shapes.webhookDisabled)
    : await api.request<Partial<WebhookConfig>>('PATCH', '/webhook', shapes.webhookDisabled, { body: { url: null } });
  const config = res.data ?? { enabled: false };
  await printObject(ctx, config as WebhookConfig, { columns: configColumns({ revealSecret: false }) });
  ctx.notice(flags.remove ? 'Webhook removed (URL and secret deleted).' : 'Webhook deliveries disabled.');
  return 0;
}
