// `proxyctl sandbox trigger EVENT`: fires an operator event through the real delivery pipeline.
import type { Input } from './trigger.command.js';
import { emit, finished, showText, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { callControl } from './control-client.js';
import { escapeControl } from '../../output/escape.js';
import { RESTORE_EVENTS } from '../../sandbox/routes/control.js';

/** Why nothing was delivered: a restore is no event at all; anything else is delivered iff a webhook is enabled. */
function nothingDelivered(event: string): string {
  if ((RESTORE_EVENTS as readonly string[]).includes(event))
    return `${event} is a sandbox action that restores the proxies, not a webhook event: nothing is delivered for it`;
  return 'no webhook is enabled, so nothing was delivered (set one with: proxyctl webhook set URL)';
}

export default async function handler({ args: [event], flags, ctx }: Input): Promise<Result> {
  let extra: Record<string, unknown> = {};
  if (flags.data !== undefined) {
    try {
      extra = JSON.parse(flags.data) as Record<string, unknown>;
    } catch {
      throw new UsageError('--data must be a JSON object');
    }
    if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) throw new UsageError('--data must be a JSON object');
  }
  const body = {
    ...extra,
    event,
    ...(flags.unit ? { proxyRef: flags.unit } : {}),
    ...(flags.pool ? { poolId: flags.pool } : {}),
    ...(flags.reason ? { reason: flags.reason } : {}),
    ...(flags.kind ? { kind: flags.kind } : {}),
    ...(flags.newIp ? { newIp: flags.newIp } : {}),
  };
  const r = await callControl(ctx, 'POST', 'trigger', body);
  if (ctx.globals.output === 'json') return showText(JSON.stringify(r, null, 2));
  const deliveries = (r.deliveries as { id: string }[] | undefined) ?? [];
  // Printed now rather than returned, so the line comes before the notice about its delivery.
  await emit(ctx, showText(escapeControl(`${String(r.event)} fired: ${JSON.stringify(r.data)}`)));
  ctx.notice(
    deliveries.length
      ? `delivery ${deliveries.map((d) => d.id).join(', ')} queued (see proxyctl webhook log)`
      : nothingDelivered(String(r.event)),
  );
  return finished(ctx);
}
