// `proxyctl sandbox advance SECONDS`: moves the sandbox clock forward.
import type { Input } from './advance.command.js';
import { showText, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { callControl } from './control-client.js';
import { escapeControl } from '../../output/escape.js';

export default async function handler({ args: [raw], ctx }: Input): Promise<Result> {
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0) throw new UsageError(`SECONDS must be a number >= 0, got "${raw}"`);
  const r = await callControl(ctx, 'POST', 'advance', { seconds });
  return showText(ctx.globals.output === 'json' ? JSON.stringify(r) : `sandbox time is now ${escapeControl(String(r.now))}`);
}
