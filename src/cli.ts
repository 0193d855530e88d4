// The only file that touches `process`: argv, env, streams, signals and the exit code.
import { main } from './main.js';
import type { IO } from './io.js';

export function run(): void {
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    // The first Ctrl-C asks the command to stop starting work and report what it did;
    // a second one gives up waiting.
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);

  const io: IO = {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
  // EPIPE (e.g. `proxyctl units list | head`) is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });

  main(process.argv.slice(2), io, { signal: controller.signal }).then(
    (code) => {
      process.exitCode = code;
      // Idle keep-alive sockets or timers must not hold the process open once the command is done.
      process.exit(code);
    },
    (err: unknown) => {
      process.stderr.write(`unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
