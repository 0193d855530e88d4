// A config lock that stays held by a live process (one that keeps it fresh) is not waited for
// forever: after the bound, the change is refused with a clear message and exit 2, and nothing is
// written. Its own file: the wait is the real 30 s bound, and vitest runs files side by side.
import { readFileSync } from 'node:fs';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerAccount as account,
  configFile,
  firstLine,
  lockHolder as spawnLockHolder,
  loginWithStdin,
  proxyctl,
  type ScriptedServer,
  startScriptedServer,
  tempHome,
  type TempHome,
} from '../helpers/index.js';

const KEY = 'pk_live_LOCK_TIMEOUT_8d2f4a6c1e3b';
let home: TempHome | undefined;
let server: ScriptedServer | undefined;
let holder: ResultPromise | undefined;
afterEach(async () => {
  holder?.kill('SIGKILL');
  await server?.close();
  home?.cleanup();
  home = server = holder = undefined;
});

const login = (h: TempHome, url: string, profile: string) => loginWithStdin(h, url, profile, KEY);
const lockHolder = (h: TempHome) => (holder = spawnLockHolder(h));

describe('config lock wait bound', () => {
  it('a lock held by a live process past the wait bound fails with a clear message, exit 2, nothing written', {
    timeout: 120_000,
  }, async () => {
    home = tempHome();
    server = await startScriptedServer((_req, res) => account(res));
    expect((await login(home, server.url, 'first')).exitCode).toBe(0);
    expect((await login(home, server.url, 'second')).exitCode).toBe(0);
    const before = readFileSync(configFile(home), 'utf8');
    const holder = lockHolder(home);
    expect(await firstLine(holder)).toBe('locked');
    const r = await proxyctl(['profiles', 'use', 'second', '--json'], { home, timeout: 100_000 });
    expect(r.exitCode).toBe(2);
    const lines = String(r.stderr).trim().split('\n');
    // It said it was waiting, then gave up with the error object (JSON mode).
    expect(lines[0]).toBe(`warning: waiting for the lock on the config file ${configFile(home)}: another proxyctl process is writing it`);
    const err = JSON.parse(lines.at(-1)!) as { error: { code: string; message: string; hint: string } };
    expect(err.error.code).toBe('config_locked');
    expect(err.error.message).toBe(
      `the config file ${configFile(home)} is locked by another proxyctl process (waited 30s); nothing was saved`,
    );
    expect(err.error.hint).toContain(`rmdir "${configFile(home)}.lock"`);
    expect(readFileSync(configFile(home), 'utf8')).toBe(before);
  });
});
