// `proxyctl completion bash|zsh|fish`: the same text as the committed completions/ files.
import type { Input } from './print.command.js';
import { showText, type Result } from '../../kit/action.js';
import { scriptFor } from './scripts.js';

export default async function handler({ args: [shell] }: Input): Promise<Result> {
  return showText(scriptFor(shell));
}
