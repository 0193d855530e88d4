// Labels the context writes on stderr before any command loads the output layer. paintWhen uses
// node:util's styleText (synchronous, built in), so startup (`proxyctl --help`) never loads chalk.
import { paintWhen } from './format.js';

/** "warning:", yellow when stderr is coloured (the caller has decided that: --no-color, NO_COLOR, TTY). */
export function warningLabel(color: boolean): string {
  return paintWhen(color).yellow('warning:');
}
