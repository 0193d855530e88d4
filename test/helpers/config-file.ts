// The config file on disk for process-level config tests: its path and contents, logins through
// stdin, an /account answer for scripted servers, and a separate process that holds the config lock.
import { execa, type ResultPromise } from 'execa';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { cleanEnv, proxyctl, type TempHome } from './cli.js';
import { json } from './scripted-server.js';

export const configFile = (h: TempHome) => join(h.configDir, 'config.json');
export const readConfig = (h: TempHome) =>
  JSON.parse(readFileSync(configFile(h), 'utf8')) as {
    currentProfile?: string;
    profiles?: Record<string, { baseUrl: string; apiKey: string }>;
    cache?: Record<string, unknown>;
  };
export const fileMode = (p: string) => statSync(p).mode & 0o777;

/** `proxyctl login` with the key on stdin (never argv). */
export function loginWithStdin(h: TempHome, url: string, profile: string | undefined, key: string) {
  return proxyctl(['login', ...(profile ? ['--profile', profile] : []), '--base-url', url, '--api-key-stdin'], {
    home: h,
    input: `${key}\n`,
    stdin: 'pipe',
  } as Parameters<typeof proxyctl>[1]);
}

/** The GET /account answer login checks a key with. */
export function answerAccount(res: ServerResponse) {
  json(res, 200, { balanceUsd: 42, discountPercent: 10, resellerEnabled: true });
}

/** A process that takes the config lock the way proxyctl does (proper-lockfile, `<file>.lock`), prints "locked" and keeps it. */
export function lockHolder(h: TempHome): ResultPromise {
  const lib = createRequire(import.meta.url).resolve('proper-lockfile');
  const script = `const l = require(${JSON.stringify(lib)});
l.lock(${JSON.stringify(configFile(h))}, { realpath: false, stale: 5000 }).then(() => { process.stdout.write('locked\\n'); setInterval(() => {}, 1000); }, (e) => { console.error(e); process.exit(1); });`;
  return execa('node', ['-e', script], { reject: false, env: cleanEnv(h.env), extendEnv: true, timeout: 120_000 }) as ResultPromise;
}
