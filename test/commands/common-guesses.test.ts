// What people type first and what it does: `pools US-12` shows that pool as `pools get US-12`
// does, and `login --api-key KEY` is refused (exit 2, nothing sent or saved) with the ways that
// work, without printing the key back.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, startKit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
});
afterAll(() => kit.close());

describe('pools POOL_ID', () => {
  it('prints what pools get POOL_ID prints, in every format get has', async () => {
    for (const out of [['--json'], ['-o', 'jsonl'], []]) {
      const get = await kit.run(['pools', 'get', 'US-12', ...out]);
      const short = await kit.run(['pools', 'us-12', ...out]);
      const long = await kit.run(['pools', 'list', 'US-12', ...out]);
      expect(get.exitCode).toBe(0);
      expect({ out, code: short.exitCode, stdout: short.stdout, stderr: short.stderr }).toEqual({
        out,
        code: 0,
        stdout: get.stdout,
        stderr: get.stderr,
      });
      expect(long.stdout).toBe(get.stdout);
    }
    const pool = JSON.parse(String((await kit.run(['pools', 'US-12', '--json'])).stdout));
    expect(pool).toEqual(await kit.api('/pools/US-12'));
  });

  it('an unknown pool is exit 5 with the nearest ids, as get says it', async () => {
    const r = await kit.run(['pools', 'US-21']);
    expect(r.exitCode).toBe(5);
    expect(String(r.stderr)).toContain('no pool US-21; did you mean US-12 or US-11? (code pool_not_found');
  });

  it('a list format (csv) or a list filter with a pool id is exit 2 before any request', async () => {
    const before = kit.sb.requestLog().length;
    const csv = await kit.run(['pools', 'US-12', '-o', 'csv']);
    expect(csv.exitCode).toBe(2);
    expect(String(csv.stderr)).toContain('-o csv is not available for this command (use one of: table, json, jsonl)');
    const filtered = await kit.run(['pools', 'US-12', '--country', 'US']);
    expect(filtered.exitCode).toBe(2);
    expect(String(filtered.stderr)).toContain('--country filters the list; US-12 names one pool: give one or the other');
    const bad = await kit.run(['pools', 'US/12']);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain('"US/12" is not a pool id');
    expect(kit.sb.requestLog().length).toBe(before);
    // Without an id, pools is the list, csv included.
    const list = await kit.run(['pools', '-o', 'csv']);
    expect(list.exitCode).toBe(0);
    expect(String(list.stdout).split('\n')[0]).toMatch(/^poolId,/);
  });
});

describe('login --api-key', () => {
  const KEY = 'sk_live_guessed_on_argv_0123456789';

  it('is refused with --api-key-stdin and the prompt named, the key never printed, nothing sent or saved', async () => {
    const before = kit.sb.requestLog().length;
    for (const args of [['--api-key', KEY], [`--api-key=${KEY}`], ['--api-key'], ['--api-key', KEY, '--json']]) {
      const r = await kit.run(['login', ...args, '--base-url', kit.sb.baseUrl], { env: { PROXYCTL_API_KEY: undefined } });
      expect({ args, code: r.exitCode }).toEqual({ args, code: 2 });
      expect(String(r.stdout)).toBe('');
      expect(String(r.stderr)).toContain('login takes no --api-key');
      expect(String(r.stderr)).toContain('--api-key-stdin');
      expect(String(r.stderr)).toContain('run proxyctl login to be asked for it (hidden)');
      expect(String(r.stderr)).not.toContain(KEY);
    }
    expect(kit.sb.requestLog().length).toBe(before);
    expect(existsSync(join(kit.home.configDir, 'config.json'))).toBe(false);
  });

  it('is not offered in help', async () => {
    const r = await kit.run(['login', '--help']);
    expect(String(r.stdout)).toContain('--api-key-stdin');
    expect(String(r.stdout)).not.toMatch(/--api-key(?!-stdin)/);
  });
});
