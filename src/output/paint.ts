// Colour for commands' output: chalk, loaded only when a stream is coloured.
import type { BaseContext as Context } from '../globals.js';
import { paintWhen, plainPaint, type Paint } from './format.js';

export function paintFor(ctx: Context, stream: 'stdout' | 'stderr' = 'stdout'): Paint {
  const on = stream === 'stdout' ? ctx.stdoutColor : ctx.stderrColor;
  if (!on) return plainPaint;
  // Only if loadPaint() was skipped (no command does): the same codes, minus chalk's nesting care.
  if (!chalk) return paintWhen(true);
  const c = new chalk.Chalk({ level: 1 });
  return { bold: c.bold, dim: c.dim, red: c.red, green: c.green, yellow: c.yellow, cyan: c.cyan };
}

let chalk: typeof import('chalk') | undefined;

/**
 * Loads chalk for paintFor(), before a command runs, only when a stream is coloured: piped and
 * redirected output (scripts, cron: most runs) never loads it (src/kit/action.ts).
 */
export async function loadPaint(): Promise<void> {
  chalk ??= await import('chalk');
}
