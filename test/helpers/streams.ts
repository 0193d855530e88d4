// Reading a spawned process's output as it comes, with event-driven waits: each wait re-checks on
// every chunk and has no deadline of its own (the test timeout bounds it), so no test depends on
// how fast a loaded machine runs.
import type { ResultPromise } from 'execa';

export interface JsonLines<T> {
  lines: T[];
  stderr(): string;
  until(ok: () => boolean): Promise<void>;
}

/** stdout as JSON lines, stderr as text. */
export function jsonLines<T>(child: ResultPromise): JsonLines<T> {
  const lines: T[] = [];
  let buf = '';
  let err = '';
  let wake: (() => void) | undefined;
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, nl)) as T);
      buf = buf.slice(nl + 1);
    }
    wake?.();
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    wake?.();
  });
  child.once('exit', () => wake?.());
  return {
    lines,
    stderr: () => err,
    async until(ok) {
      while (!ok()) {
        if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) while waiting; stderr: ${err}`);
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
}

/** The first line the process prints on stdout; rejects if it exits first. */
export function firstLine(child: ResultPromise): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (c: Buffer) => {
      buf += c.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        child.stdout!.off('data', onData);
        resolve(buf.slice(0, nl));
      }
    };
    child.stdout!.on('data', onData);
    child.then((r) => reject(new Error(`exited before its first line (${r.exitCode}): ${String(r.stderr)}`)), reject);
  });
}

/**
 * The child's stdout or stderr text from now on, once `ready(text)` holds; resolves with what
 * came so far if the process ends first (the test's assertions then say what was missing).
 */
export function outputUntil(child: ResultPromise, stream: 'stdout' | 'stderr', ready: (text: string) => boolean): Promise<string> {
  let text = '';
  return new Promise<string>((resolve) => {
    const onData = (c: Buffer) => {
      text += c.toString('utf8');
      if (ready(text)) {
        child[stream]!.off('data', onData);
        resolve(text);
      }
    };
    child[stream]!.on('data', onData);
    void child.then(
      () => resolve(text),
      () => resolve(text),
    );
  });
}
