// Labels the context writes on stderr before any command loads the output layer. node:util's
// styleText is synchronous and built in, so startup (`proxyctl --help`) still never loads chalk.
import { styleText } from 'node:util';

/** "warning:", yellow when stderr is coloured (the caller has decided that: --no-color, NO_COLOR, TTY). */
export function warningLabel(color: boolean): string {
  return color ? styleText('yellow', 'warning:', { validateStream: false }) : 'warning:';
}
