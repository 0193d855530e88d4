// Reads a spawned process's stdout as JSON lines and its stderr as text, with an event-driven
// wait: `until(ok)` re-checks on every chunk and has no deadline of its own (the test timeout
// bounds it), so no test depends on how fast a loaded machine runs.
import type { ResultPromise } from 'execa';

export interface JsonLines<T> {
  lines: T[];
  stderr(): string;
  until(ok: () => boolean): Promise<void>;
}

export function jsonLines<T>(child: ResultPromise): JsonLines<T> {
  const lines: T[] = [];
  let buf = '';
  let err = '';
  let wake: (() => void) | undefined;
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
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
