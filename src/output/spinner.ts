// The spinner (ora, loaded only when one is shown) on stderr while a command waits.
import type { BaseContext as Context } from '../globals.js';
import { escapeControl } from './escape.js';

/** Runs `fn` with an ora spinner on stderr, only on a TTY and never with --quiet. */
export async function withSpinner<R>(ctx: Context, text: string, fn: () => Promise<R>): Promise<R> {
  // A pty without a size (columns 0: script(1), some CI runners) makes ora redraw without end.
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet || !((ctx.io.stderr as NodeJS.WriteStream).columns > 0)) return fn();
  const { default: ora } = await import('ora');
  const spinner = ora({
    text: escapeControl(text),
    stream: ctx.io.stderr as NodeJS.WriteStream,
    color: 'cyan',
    isEnabled: true,
    discardStdin: false,
  }).start();
  // What the client waits for and for how long ("waiting for api.example.com: 4s of 30s").
  const tick = setInterval(() => {
    const wait = ctx.activity.describeWait();
    spinner.text = escapeControl(wait ? `${text} ${wait}` : text);
  }, 500);
  try {
    return await fn();
  } finally {
    clearInterval(tick);
    spinner.stop();
  }
}
