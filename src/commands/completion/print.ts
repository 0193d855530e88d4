// `proxyctl completion bash|zsh|fish`: the same text as the committed completions/ files.
import type { Input } from './print.command.js';
import { scriptFor } from './scripts.js';

export default async function print({ args: [shell], ctx }: Input): Promise<number> {
  ctx.io.stdout.write(scriptFor(shell));
  return 0;
}
