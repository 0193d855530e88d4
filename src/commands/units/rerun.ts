// The command line that does what an interrupted run left undone: printed after Ctrl-C, so that
// running it, in the same shell, finishes exactly the rest. It acts on the same account: a
// --profile or --base-url given as a flag (not already in the environment) is repeated.
import type { Context } from '../../context/index.js';
import { nonEmpty } from '../../globals.js';

/** `proxyctl <words> [--profile P] [--base-url U] [--insecure]`, each word quoted for a POSIX shell where it needs it. */
export function rerunCommand(ctx: Context, words: string[]): string {
  const { globals, io } = ctx;
  const account: string[] = [];
  if (globals.profile !== undefined && globals.profile !== nonEmpty(io.env.PROXYCTL_PROFILE)) account.push('--profile', globals.profile);
  if (globals.baseUrl !== undefined && globals.baseUrl !== nonEmpty(io.env.PROXYCTL_BASE_URL)) account.push('--base-url', globals.baseUrl);
  if (globals.insecure) account.push('--insecure');
  return ['proxyctl', ...words, ...account].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
