// A command held back by the rate limit (a 429 with Retry-After) shows it on the spinner, with
// the seconds left, instead of "Fetching balance…" alone. The binary runs on a pty (script(1)).
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  apiError,
  BIN,
  cleanEnv,
  json,
  needing,
  notInstalled,
  type ScriptedServer,
  startScriptedServer,
  tempHome,
} from '../helpers/index.js';

const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));

let server: ScriptedServer;
let calls = 0;
beforeAll(async () => {
  // The first request is refused for 4 seconds; the next one is answered.
  server = await startScriptedServer((_req, res) => {
    calls += 1;
    if (calls === 1) apiError(res, 429, 'rate_limited', 'slow down', { 'retry-after': '4' });
    else json(res, 200, { balanceUsd: 12.5, discountPercent: 15, resellerEnabled: true });
  });
});
afterAll(() => server.close());

it.skipIf(!SCRIPT)(
  needing(
    'the spinner says it waits for the rate limit, then the answer is printed',
    SCRIPT ? undefined : notInstalled('script', 'bsdutils'),
  ),
  async () => {
    const home = tempHome();
    try {
      const r = await execa(SCRIPT!, ['-qfec', `stty cols 100 rows 30; ${process.execPath} ${BIN} account`, '/dev/null'], {
        reject: false,
        stdin: 'ignore',
        timeout: 40_000,
        env: cleanEnv({ ...home.env, PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'sk_test_spinner', TERM: 'xterm', NO_COLOR: '1' }),
        extendEnv: true,
      });
      expect(r.exitCode, String(r.stdout)).toBe(0);
      expect(String(r.stdout)).toMatch(/Fetching balance… waiting [1-4] s for the rate limit/);
      expect(String(r.stdout)).toContain('12.50 USD');
      expect(calls).toBe(2);
    } finally {
      home.cleanup();
    }
  },
  60_000,
);
