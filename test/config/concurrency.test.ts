// Several proxyctl processes on one config dir at once: every read-modify-write of the config
// file happens under a cross-process lock and re-reads the file inside it, so no process writes
// back a stale copy of what another one saved. The built binary is spawned as a user would.
import type { ResultPromise } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerAccount as account,
  configFile,
  fileMode as mode,
  firstLine,
  type Kit,
  lockHolder as spawnLockHolder,
  loginWithStdin,
  pickPools,
  proxyctl,
  readConfig,
  type ScriptedServer,
  startKit,
  startScriptedServer,
  tempHome,
  type TempHome,
} from '../helpers/index.js';

const KEY = 'pk_live_CONCURRENCY_7c1e9a2b4d6f';
const SLOW_KEY = 'pk_live_SLOW_LOGIN_3b5d7f9a1c2e';

let home: TempHome | undefined;
let server: ScriptedServer | undefined;
let kit: Kit | undefined;
const children: ResultPromise[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await server?.close();
  await kit?.close();
  home?.cleanup();
  home = server = kit = undefined;
});

const login = (h: TempHome, url: string, profile: string | undefined, key = KEY) => loginWithStdin(h, url, profile, key);
function lockHolder(h: TempHome): ResultPromise {
  const child = spawnLockHolder(h);
  children.push(child);
  return child;
}

describe('config writes from parallel processes', () => {
  it('10 parallel logins of distinct profiles keep all 10 profiles, in a 0600 file', { timeout: 90_000 }, async () => {
    home = tempHome();
    // Hold every key check until all 10 processes have asked: each has read the config file by
    // then, so a process that writes back what it read would drop the others' profiles.
    const held: ServerResponse[] = [];
    server = await startScriptedServer((_req, res) => {
      held.push(res);
      if (held.length === 10) for (const r of held) account(r);
    });
    const names = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const results = await Promise.all(names.map((n) => login(home!, server!.url, n)));
    for (const r of results) expect(r.exitCode, String(r.stderr)).toBe(0);
    const saved = readConfig(home);
    expect(Object.keys(saved.profiles ?? {}).sort()).toEqual(names);
    for (const n of names) expect(saved.profiles![n]).toEqual({ baseUrl: server.url, apiKey: KEY });
    // The first one saved became current (there was none); nobody else overrode it.
    expect(names).toContain(saved.currentProfile);
    expect(mode(configFile(home))).toBe(0o600);
    expect(mode(home.configDir)).toBe(0o700);
    expect(existsSync(`${configFile(home)}.lock`)).toBe(false);
    for (const r of results) expect(`${String(r.stdout)}${String(r.stderr)}`).not.toContain(KEY);
  });

  it('config set check-target on five profiles while five more log in: every setting and profile kept', { timeout: 90_000 }, async () => {
    home = tempHome();
    server = await startScriptedServer((_req, res) => account(res));
    const first = ['a0', 'a1', 'a2', 'a3', 'a4'];
    for (const n of first) expect((await login(home, server.url, n)).exitCode).toBe(0);
    const later = ['b0', 'b1', 'b2', 'b3', 'b4'];
    const results = await Promise.all([
      ...first.map((n, i) => proxyctl(['--profile', n, 'config', 'set', 'check-target', `http://127.0.0.1:9/t${i}`], { home: home! })),
      ...later.map((n) => login(home!, server!.url, n)),
    ]);
    for (const r of results) expect(r.exitCode, String(r.stderr)).toBe(0);
    const saved = readConfig(home) as { profiles?: Record<string, Record<string, unknown>> };
    expect(Object.keys(saved.profiles ?? {}).sort()).toEqual([...first, ...later]);
    for (const [i, n] of first.entries()) {
      const got = await proxyctl(['--profile', n, 'config', 'get', 'check-target'], { home });
      expect(String(got.stdout).trim()).toBe(`http://127.0.0.1:9/t${i}`);
    }
    expect(mode(configFile(home))).toBe(0o600);
  });

  it('a logout while a slow login waits for the API is not undone when that login saves', async () => {
    home = tempHome();
    let release: (() => void) | undefined;
    let slowArrived: () => void;
    const arrived = new Promise<void>((r) => (slowArrived = r));
    server = await startScriptedServer((req, res) => {
      if (req.headers['x-api-key'] !== SLOW_KEY) return account(res);
      release = () => account(res);
      slowArrived();
    });
    expect((await login(home, server.url, undefined)).exitCode).toBe(0);
    expect((await login(home, server.url, 'work')).exitCode).toBe(0);
    const slow = login(home, server.url, 'slow', SLOW_KEY);
    children.push(slow);
    await arrived;
    const out = await proxyctl(['logout', '--profile', 'work'], { home });
    expect(out.exitCode, String(out.stderr)).toBe(0);
    // Its key is gone; its base URL (a setting) stays, as logout keeps settings.
    expect(readConfig(home).profiles).toEqual({ default: { baseUrl: server.url, apiKey: KEY }, work: { baseUrl: server.url } });
    release!();
    const r = await slow;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const saved = readConfig(home);
    expect(saved.profiles).toEqual({
      default: { baseUrl: server.url, apiKey: KEY },
      work: { baseUrl: server.url },
      slow: { baseUrl: server.url, apiKey: SLOW_KEY },
    });
    expect(saved.currentProfile).toBe('default');
    expect(mode(configFile(home))).toBe(0o600);
  });

  it('15 parallel creates each keep their purchase record, matching the units the server sold', { timeout: 90_000 }, async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const pool = (await pickPools(kit))[0]!.poolId;
    const keys = Array.from({ length: 15 }, (_, i) => `0b6f3c2e-5d4a-4f1b-9c8d-${String(i).padStart(12, '0')}`);
    const results = await Promise.all(
      keys.map((k) => kit!.run(['units', 'create', '--pool', pool, '--period', '3h', '--idempotency-key', k, '--json'])),
    );
    for (const r of results) expect(r.exitCode, String(r.stderr)).toBe(0);
    const bought = results.map((r) => (JSON.parse(String(r.stdout)) as { proxyRef: string }).proxyRef);
    expect((await kit.state()).units.map((u) => u.proxyRef).sort()).toEqual([...bought].sort());
    // In the data dir, never in the file that holds the keys (which no create rewrites).
    // One line a record (the last of a key wins), appended by each process in one write.
    const file = join(kit.home.configDir, 'data', 'purchases.jsonl');
    const entries = new Map<string, { proxyRef?: string }>();
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(line) as { k: string; v: { proxyRef?: string } };
      entries.set(r.k, r.v);
    }
    const records = keys.map((k) => entries.get(`idempotency-bought:${kit!.sb.baseUrl}:${k}:0`));
    expect(records.map((r) => r?.proxyRef)).toEqual(bought);
    expect(mode(file)).toBe(0o600);
    expect(existsSync(configFile(kit.home))).toBe(false);
    // And a re-run of one of them knows it was bought: quoted at nothing, replayed, no second debit.
    const balance = (await kit.state()).balanceUsd;
    const again = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--idempotency-key', keys[7]!, '--json']);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(String(again.stderr)).toContain('1 of 1 were bought earlier');
    expect(JSON.parse(String(again.stdout)).proxyRef).toBe(bought[7]);
    expect((await kit.state()).balanceUsd).toBe(balance);
  });

  it('a lock left by a process killed while holding it is recovered', { timeout: 90_000 }, async () => {
    home = tempHome();
    server = await startScriptedServer((_req, res) => account(res));
    expect((await login(home, server.url, 'first')).exitCode).toBe(0);
    const holder = lockHolder(home);
    expect(await firstLine(holder)).toBe('locked');
    holder.kill('SIGKILL');
    await holder;
    expect(existsSync(`${configFile(home)}.lock`)).toBe(true);
    const r = await login(home, server.url, 'second');
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(Object.keys(readConfig(home).profiles ?? {}).sort()).toEqual(['first', 'second']);
    expect(existsSync(`${configFile(home)}.lock`)).toBe(false);
    expect(mode(configFile(home))).toBe(0o600);
  });
});
