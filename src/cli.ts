// The only file that touches `process`: argv, env, streams, signals and the exit code.
import { main } from './main.js';
import type { IO } from './io.js';
import { inFlight } from './in-flight.js';
import { escapeControl } from './output/escape.js';

export function run(): void {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts === 1) {
      // The first signal asks the command to stop starting work, let started writes finish and
      // report what it did.
      controller.abort();
      const note = inFlight.waitingNote(signal === 'SIGINT' ? 'interrupted' : `${signal} received`);
      if (note) process.stderr.write(note);
    } else if (interrupts === 2) {
      // The second gives up waiting, saying what may or may not have happened.
      process.stderr.write(inFlight.abandonNote());
      void exitWhenDrained(130, [process.stderr]);
    } else {
      process.exit(130);
    }
  };
  ownSignals(onSignal);

  const io: IO = {
    // Made on first use: building process.stdin (a stream over fd 0, and the Node modules behind
    // it) costs a read command ~5 ms it never needs; only a prompt or a payload read asks for it.
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
  // EPIPE (e.g. `proxyctl units list | head`): the reader has what it wanted; not an error worth
  // a stack trace, and nothing more can reach it.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    readerGone = true;
    void exitWhenDrained(0, [process.stderr]);
  });
  process.stderr.on('error', () => {
    // Nowhere left to report a failing stderr; stdout and the exit code still tell the story.
  });

  main(process.argv.slice(2), io, { signal: controller.signal }).then(
    (code) => exitWhenDrained(code),
    (err: unknown) => {
      // Last resort (main() reports everything it can): still no raw control characters from a server.
      const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
      process.stderr.write(
        `unexpected error: ${text
          .split('\n')
          .map((l) => escapeControl(l))
          .join('\n')}\n`,
      );
      return exitWhenDrained(1);
    },
  );
}

/** Set on EPIPE: whoever read stdout stopped early (`| head`), which is not a failure. */
let readerGone = false;

/**
 * Exits once everything written to the streams has reached the OS. Writes to a pipe are
 * asynchronous: process.exit() with output still queued cut `units list --all --json | slow-reader`
 * short while reporting success. Exiting explicitly (rather than letting the event loop empty)
 * keeps idle keep-alive sockets and timers from holding the process open once the command is done.
 */
async function exitWhenDrained(exitCode: number, streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): Promise<void> {
  // Once the reader has gone, the command finishing meanwhile must not turn the quiet 0 into its own code.
  const code = readerGone ? 0 : exitCode;
  process.exitCode = code;
  await Promise.all(streams.map(drained));
  process.exit(code);
}

function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  // Write callbacks run in order: this one runs once every earlier chunk is flushed (or failed).
  return new Promise((resolve) => stream.write('', () => resolve()));
}

const OWNED_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * SIGINT and SIGTERM are ours alone. Dependencies install their own handlers (today signal-exit,
 * loaded by proper-lockfile; earlier when-exit, loaded by conf, re-raised the signal once its
 * callbacks ran, which counted as a second Ctrl-C and killed a batch mid-way); those are removed as
 * soon as they are added. Their exit hooks (e.g. releasing a lock) still run on 'exit', which every
 * path reaches.
 */
function ownSignals(handler: (signal: NodeJS.Signals) => void): void {
  const owned = (event: string | symbol): event is (typeof OWNED_SIGNALS)[number] =>
    (OWNED_SIGNALS as readonly (string | symbol)[]).includes(event);
  for (const s of OWNED_SIGNALS) {
    for (const l of process.rawListeners(s)) process.removeListener(s, l as (...args: unknown[]) => void);
    process.on(s, handler);
  }
  process.on('newListener', (event: string | symbol, listener: (...args: unknown[]) => void) => {
    // 'newListener' fires before the listener is added: remove it once it is there.
    if (owned(event) && listener !== handler) queueMicrotask(() => process.removeListener(event, listener));
  });
}
