// webhook test: fire the sample event through the real pipeline (operation resolved from the
// server's description, default POST /webhook/test → 202 + delivery record), then follow that
// delivery in the log until its first attempt has an outcome.
import { getDeliveryPage, sendTestEvent } from '../../api/endpoints.js';
import type { Input } from './test.command.js';
import { emit, finished, show, type Result } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import type { ApiClient } from '../../api/index.js';
import { abortableSleep } from '../../api/client.js';
import { ApiError, UsageError } from '../../errors.js';
import { withSpinner } from '../../output/index.js';
import type { TestDelivery } from '../../api/shapes.js';
import { rememberedWebhook } from './disabled-webhook.js';
import { deliveryColumns } from './columns.js';

const POLL_MS = 500;

export function parseWait(raw: string | undefined): number {
  const n = Number(raw ?? '10');
  if (!Number.isFinite(n) || n < 0 || n > 600) throw new UsageError(`--wait must be 0 to 600 seconds, got "${raw}"`);
  return n * 1000;
}

function settled(d: TestDelivery): boolean {
  return d.status !== 'PENDING' || (typeof d.attempts === 'number' && d.attempts > 0);
}

/** The delivery as the log shows it, once its first attempt is over (or when time runs out). */
async function awaitOutcome(ctx: Context, api: ApiClient, fired: TestDelivery, waitMs: number): Promise<TestDelivery> {
  const deadline = Date.now() + waitMs;
  let latest: TestDelivery = fired;
  while (!settled(latest) && Date.now() < deadline) {
    await abortableSleep(POLL_MS, ctx.signal);
    const page = await getDeliveryPage(api, { event: fired.event, pageSize: 25 });
    latest = (Array.isArray(page?.data) ? page.data : []).find((d) => d.id === fired.id) ?? latest;
  }
  return latest;
}

/**
 * The API's refusal when no webhook is set names its own operation ("set one with PATCH /webhook");
 * the user is told the proxyctl command instead, keeping the code, status and request id.
 */
async function nowhereToSend(ctx: Context, api: ApiClient, err: ApiError): Promise<ApiError> {
  const { saved } = await rememberedWebhook(ctx, api);
  const hint = saved
    ? `proxyctl webhook enable sets ${saved.url} again (webhook disable turned it off)`
    : 'set one with: proxyctl webhook set URL (proxyctl webhook listen runs a local receiver)';
  const { status, type, requestId, raw } = err;
  return new ApiError(
    { status, code: err.code, type, requestId, raw, message: 'no webhook is enabled, so the test event has nowhere to go' },
    hint,
  );
}

// The delivery is printed before what it means (acknowledged, failed, not yet tried), as a terminal reads them.
export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const waitMs = parseWait(flags.wait);
  const api = await ctx.api();
  const res = await sendTestEvent(api).catch(async (err: unknown) => {
    throw err instanceof ApiError && err.code === 'webhook_not_configured' ? await nowhereToSend(ctx, api, err) : err;
  });
  let delivery = res.data;
  if (delivery && typeof delivery.id === 'string' && waitMs > 0) {
    delivery = await withSpinner(ctx, 'Waiting for the test delivery…', () => awaitOutcome(ctx, api, delivery, waitMs));
  }
  await emit(ctx, show(delivery, { columns: deliveryColumns }));
  if (delivery?.status === 'DELIVERED') ctx.notice('The receiver acknowledged the test event.');
  else if (delivery?.status === 'FAILED' || (delivery?.attempts ?? 0) > 0) {
    ctx.warn(
      `the receiver did not acknowledge the test event${delivery.lastError ? ` (${delivery.lastError})` : ''}; retries follow the usual schedule (proxyctl webhook log --follow)`,
    );
  } else {
    ctx.notice('Not attempted yet; watch it with: proxyctl webhook log --follow');
  }
  return finished(ctx);
}
