// webhook enable: PATCH /webhook { url } with the URL `webhook disable` remembered for this
// profile and API, shown as `webhook set` shows it (a new secret, once). It never replaces a
// webhook that is enabled: that would rotate a secret a receiver is using.
import type { Input } from './enable.command.js';
import { UsageError } from '../../errors.js';
import { assertFormats, printObject } from '../../output/index.js';
import { getWebhook } from './get.js';
import { forgetWebhook, rememberedWebhook } from './disabled-webhook.js';
import { setAndShow } from './set.js';
import { configColumns } from './columns.js';

export default async function run({ ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const api = await ctx.api();
  const { profile, saved, elsewhere } = await rememberedWebhook(ctx, api);
  if (!saved) {
    throw new UsageError(
      elsewhere
        ? `the webhook URL remembered for profile "${profile}" was disabled on ${elsewhere.baseUrl}, not on ${api.baseUrl}`
        : `no disabled webhook URL is remembered for profile "${profile}"`,
      {
        code: 'nothing_to_enable',
        hint: `webhook enable sets again the URL that proxyctl webhook disable turned off; set one with: proxyctl webhook set ${elsewhere?.url ?? 'URL'}`,
      },
    );
  }
  const current = await getWebhook(ctx);
  if (current.enabled && current.url === saved.url) {
    await forgetWebhook(ctx, api);
    await printObject(ctx, current, { columns: configColumns({ revealSecret: false }) });
    ctx.notice(`The webhook is already enabled at ${saved.url}; nothing changed (its secret neither).`);
    return 0;
  }
  if (current.enabled && current.url) {
    throw new UsageError(`a webhook is already enabled at ${current.url}; enabling ${saved.url} would replace it and its secret`, {
      code: 'webhook_enabled',
      hint: `to replace it anyway: proxyctl webhook set ${saved.url}`,
    });
  }
  await setAndShow(ctx, saved.url);
  await forgetWebhook(ctx, api);
  return 0;
}
