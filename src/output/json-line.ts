// The lines of a JSON stream a command writes itself, through --jq when given.
import type { BaseContext as Context } from '../globals.js';
import { jqText } from './jq.js';

/**
 * One JSON line of a stream a command writes itself (`webhook listen`, `webhook log --follow`),
 * without its newline: the value on one line, or with --jq what the expression makes of it (its
 * results a line each; '' for none).
 */
export function jsonLine(ctx: Context, value: unknown): string {
  if (ctx.globals.jq === undefined) return JSON.stringify(value);
  return jqText(ctx, JSON.stringify(value)).replace(/\n$/, '');
}
