// webhook enable: PATCH /webhook { url } with the URL `webhook disable` remembered for this
// profile and API, shown as `webhook set` shows it (a new secret, once). It never replaces a
// webhook that is enabled: that would rotate a secret a receiver is using.
import type { Input } from './enable.command.js';
import { emit, finished, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { getWebhook, showConfig } from './get.js';
import { forgetWebhook, rememberedWebhook } from './disabled-webhook.js';
import { setAndShow } from './set.js';

export default async function handler({ ctx }: Input): Promise<Result> {
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
    await emit(ctx, showConfig(current));
    ctx.notice(`The webhook is already enabled at ${saved.url}; nothing changed (its secret neither).`);
    return finished(ctx);
  }
  if (current.enabled && current.url) {
    throw new UsageError(`a webhook is already enabled at ${current.url}; enabling ${saved.url} would replace it and its secret`, {
      code: 'webhook_enabled',
      hint: `to replace it anyway: proxyctl webhook set ${saved.url}`,
    });
  }
  const code = await setAndShow(ctx, saved.url);
  await forgetWebhook(ctx, api);
  return code;
}
