// On a terminal the spinner says what it waits for and for how long, instead of spinning in
// silence while a server does not answer. The binary runs under script(1) to get a real pty.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, needing, notInstalled, type ScriptedServer, startScriptedServer, tempHome } from '../helpers/index.js';

const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));

let server: ScriptedServer;
beforeAll(async () => {
  // Accepts requests and never answers them.
  server = await startScriptedServer(() => {});
});
afterAll(() => server.close());

/** `account --timeout 2` on a pty; `size` sets the terminal's columns first (none: a 0×0 pty). */
async function onPty(size: string) {
  const home = tempHome();
  try {
    const r = await execa(SCRIPT!, ['-qfec', `${size}${process.execPath} ${BIN} account --timeout 2`, '/dev/null'], {
      reject: false,
      stdin: 'ignore',
      timeout: 40_000,
      env: cleanEnv({ ...home.env, PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_spinner', TERM: 'xterm' }),
      extendEnv: true,
    });
    return { exitCode: r.exitCode, out: String(r.stdout) };
  } finally {
    home.cleanup();
  }
}

describe.skipIf(!SCRIPT)(needing('spinner while waiting', SCRIPT ? undefined : notInstalled('script', 'bsdutils')), () => {
  it('names the host, the seconds waited of the --timeout, and the second attempt', async () => {
    server.requests.length = 0;
    const r = await onPty('stty cols 120 rows 30; ');
    const host = new URL(server.url).host.replace(/\./g, '\\.');
    expect(r.out).toMatch(new RegExp(`Fetching balance… waiting for ${host}: \\ds of 2s`));
    expect(r.out).toMatch(new RegExp(`Fetching balance… waiting for ${host}: \\ds of 2s \\(attempt 2\\)`));
    expect(r.out).toContain('no complete answer from');
    expect(r.exitCode).toBe(9);
    expect(server.requests).toHaveLength(2);
  }, 60_000);

  it('a pty without a size gets no spinner, and the command still ends (exit 9)', async () => {
    const r = await onPty('');
    expect(r.exitCode).toBe(9);
    expect(r.out).not.toContain('Fetching balance');
    expect(r.out).toContain('no complete answer from');
  }, 60_000);
});
