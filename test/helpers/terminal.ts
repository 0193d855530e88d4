// The built binary on a real terminal: script(1) gives it a pty for stdin, stdout and stderr
// (both arrive on the one screen). Prompts are answered with `key`, after `until` saw them.
import { execa, type ResultPromise } from 'execa';
import { BIN, cleanEnv } from './cli.js';

const quoteArg = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `proxyctl …args` on a pty (script(1)), with `env` over a clean environment; `screen()` is everything it drew so far, `until` waits for a text. */
export function inTerminal(env: Record<string, string>, args: string[], opts: { columns?: number } = {}) {
  // script(1)'s pty has no size unless told (stty), as when a terminal is 80 columns wide.
  const size = opts.columns === undefined ? '' : `stty cols ${opts.columns} rows 50; `;
  const command = size + ['node', BIN, ...args].map(quoteArg).join(' ');
  const child: ResultPromise = execa('script', ['-qefc', command, '/dev/null'], {
    reject: false,
    stdin: 'pipe',
    timeout: 60_000,
    env: cleanEnv({ SHELL: '/bin/sh', NO_COLOR: '1', TERM: 'xterm', ...env }),
    extendEnv: true,
  });
  let screen = '';
  let exited = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  child.stdout!.on('data', (c: Buffer) => {
    screen += c.toString('utf8');
    wake();
  });
  void child.finally(() => {
    exited = true;
    wake();
  });
  return {
    child,
    screen: () => screen,
    /** Resolves with true once `text` shows after position `from`, false if the process ended first. */
    until(text: string | RegExp, from = 0): Promise<boolean> {
      return new Promise((resolve) => {
        const check = () => {
          const rest = screen.slice(from);
          if (typeof text === 'string' ? rest.includes(text) : text.test(rest)) return done(true);
          if (exited) return done(false);
        };
        const done = (v: boolean) => {
          waiters.delete(check);
          resolve(v);
        };
        waiters.add(check);
        check();
      });
    },
    key(s: string) {
      child.stdin!.write(s);
    },
  };
}
