// `proxyctl __complete`, the entry point the shell scripts call on TAB: the real command tree, fixed
// sets, and the account's own values from the cache that commands fill as they run. Never the
// network, never an API key.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerPrompts, fileMode, inTerminal, KEY, proxyctl, startKit, startScriptedServer, tempHome, type Kit } from '../helpers/index.js';
import { EVENT_NAMES } from '../../src/webhooks/events.js';

const cacheFile = (kit: Kit) => join(kit.home.configDir, 'cache', 'completion-values.json');

async function completeIn(kit: Kit, words: string[], env: Record<string, string> = {}) {
  const r = await kit.run(['__complete', ...words], { env });
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe('');
  const lines = String(r.stdout).split('\n').filter(Boolean);
  return { values: lines.slice(0, -1).map((l) => l.split('\t')[0]), directive: lines.at(-1), stdout: String(r.stdout) };
}

/** The values cache's dir, but for a code/ dir an earlier version's code cache left there. */
function cacheFiles(kit: Kit): string[] {
  return readdirSync(join(kit.home.configDir, 'cache')).filter((f) => f !== 'code');
}

describe('proxyctl __complete: the command tree and fixed sets', { timeout: 300_000 }, () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(() => kit.close());
  const complete = (...words: string[]) => completeIn(kit, words);

  it('completes commands, aliases when no name fits, and flags (own, the default subcommand’s, global)', async () => {
    expect((await complete('units', 'l')).values).toEqual(['list']);
    expect((await complete('units', 'b')).values).toEqual(['buy']);
    expect((await complete('units', 'rm')).values).toEqual(['rm']);
    expect((await complete('units', 'buy', '--per')).values).toEqual(['--period']);
    expect((await complete('pools', '--co')).values).toEqual(['--country']);
    expect((await complete('units', 'ls', '--js')).values).toEqual(['--json']);
    expect((await complete('webhook', '')).values).toEqual([
      'get',
      'set',
      'enable',
      'disable',
      'delete',
      'test',
      'log',
      'verify',
      'listen',
    ]);
    expect((await complete('webhook', 'disable', '--r')).values).toEqual(['--remove']);
    const top = await complete('');
    expect(top.values).toEqual(expect.arrayContaining(['units', 'pools', 'profiles', 'completion']));
    expect(top.values).not.toContain('__complete');
    expect(top.directive).toBe(':4');
    // Descriptions follow a tab.
    expect((await complete('units', 'cr')).stdout).toBe(
      'create\tbuy units from a pool (guided in a terminal when --pool/--period are missing)\n:4',
    );
  });

  it('offers every fixed set', async () => {
    expect((await complete('units', 'create', '--period', '')).values).toEqual(['3h', '12h', '24h', '7d', '30d']);
    expect((await complete('units', 'create', '--protocol', '')).values).toEqual(['socks5', 'http', 'http_noauth', 'inject']);
    expect((await complete('units', 'change-protocol', 'PRX-1', '--protocol', 'i')).values).toEqual(['inject']);
    expect((await complete('units', 'extend', 'PRX-1', '--period=3')).values).toEqual(['--period=3h', '--period=30d']);
    expect((await complete('units', 'list', '--status', '')).values).toEqual(['ACTIVE', 'EXPIRED', 'RELEASED']);
    expect((await complete('webhook', 'log', '--status', '')).values).toEqual(['PENDING', 'DELIVERED', 'FAILED']);
    expect((await complete('webhook', 'log', '--event', 'unit.c')).values).toEqual(['unit.created']);
    expect((await complete('me', '-o', 'j')).values).toEqual(['json', 'jsonl']);
    expect((await complete('completion', '')).values).toEqual(['bash', 'zsh', 'fish']);
    expect((await complete('sandbox', 'trigger', 'server.')).values).toEqual(['server.down', 'server.ip_changed']);
  });

  it('leaves free-text values and arguments to the shell’s file names (directive 0)', async () => {
    expect(await complete('units', 'modify', 'PRX-1', '--description', '')).toMatchObject({ values: [], directive: ':0' });
    expect(await complete('webhook', 'set', '')).toMatchObject({ values: [], directive: ':0' });
  });
});

describe('proxyctl __complete: values the account’s commands left in the cache', { timeout: 300_000 }, () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(() => kit.close());
  const complete = (...words: string[]) => completeIn(kit, words);

  it('offers pool ids, countries, states and providers once `pools` ran, and only for that account', async () => {
    expect(await complete('units', 'create', '--pool', '')).toMatchObject({ values: [], directive: ':4' });
    expect((await kit.run(['pools', '--json'])).exitCode).toBe(0);
    const pools = (await kit.api<{ data: { poolId: string; country: string; state: string | null; provider: string }[] }>('/pools')).data;
    const ids = (await complete('units', 'list', '--pool', '')).values;
    expect([...ids].sort()).toEqual(pools.map((p) => p.poolId).sort());
    expect((await complete('pools', 'get', pools[0]!.poolId)).values).toContain(pools[0]!.poolId);
    expect([...(await complete('pools', '--country', '')).values].sort()).toEqual([...new Set(pools.map((p) => p.country))].sort());
    expect((await complete('states', '--country', 'U')).values).toEqual(['US']);
    expect((await complete('pools', '--state', '')).values.length).toBeGreaterThan(0);
    // Only words a shell takes as they are: "AT&T" would need quoting, so it is left out.
    const providers = [...new Set(pools.map((p) => p.provider))].filter((p) => /^[\w.:@/+-]+$/.test(p));
    expect(providers.length).toBeGreaterThan(5);
    expect([...(await complete('pools', '--provider', '')).values].sort()).toEqual(providers.sort());
    // Another base URL is another account: none of these.
    expect((await completeIn(kit, ['units', 'create', '--pool', ''], { PROXYCTL_BASE_URL: 'http://127.0.0.1:9' })).values).toEqual([]);
    expect((await complete('--base-url', 'http://127.0.0.1:9', 'units', 'create', '--pool', '')).values).toEqual([]);
  });

  it('offers the refs of units bought, listed or shown, and forgets released ones', async () => {
    const pool = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data.find((p) => p.available)!.poolId;
    const bought = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--count', '2', '--json']);
    expect(bought.exitCode).toBe(0);
    const refs = (JSON.parse(String(bought.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef);
    expect([...(await complete('units', 'get', '')).values].sort()).toEqual([...refs].sort());
    expect((await complete('units', 'release', refs[0]!, '')).values).toEqual(expect.arrayContaining(refs));
    expect((await kit.run(['units', 'release', refs[0]!, '--yes', '--json'])).exitCode).toBe(0);
    expect((await complete('units', 'extend', '')).values).toEqual([refs[1]]);
    // A fresh cache fills from `units list` as well.
    writeFileSync(cacheFile(kit), '{}');
    expect((await complete('units', 'usage', '')).values).toEqual([]);
    expect((await kit.run(['units', 'list', '--json'])).exitCode).toBe(0);
    expect((await complete('units', 'swap', '')).values).toEqual([refs[1]]);
  });

  it('a list run again that saw nothing new leaves the file as it is, and what changed meanwhile still reaches it', async () => {
    const pool = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data.find((p) => p.available)!.poolId;
    const buy = async () => {
      const r = await kit.run(['units', 'create', '--pool', pool, '--period', '24h', '--json']);
      expect(r.exitCode).toBe(0);
      return (JSON.parse(String(r.stdout)) as { proxyRef: string }).proxyRef;
    };
    const listed = async () => {
      const r = await kit.run(['units', 'list', '-o', 'conn']);
      expect(r.exitCode).toBe(0);
    };
    const first = await buy();
    await listed();
    const written = statSync(cacheFile(kit));
    const text = readFileSync(cacheFile(kit), 'utf8');
    // The same units again: not a byte written, not even the file replaced.
    await listed();
    await listed();
    const after = statSync(cacheFile(kit));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    expect(readFileSync(cacheFile(kit), 'utf8')).toBe(text);
    // A unit bought, and one released, by other commands: the next list and TAB know both.
    const second = await buy();
    expect((await kit.run(['units', 'release', first, '--yes', '--json'])).exitCode).toBe(0);
    await listed();
    const offered = (await complete('units', 'get', '')).values;
    expect(offered).toContain(second);
    expect(offered).not.toContain(first);
    // A list that sees a unit the cache has lost (its file cut back by hand) writes it again.
    const third = await buy();
    await listed();
    const data = JSON.parse(readFileSync(cacheFile(kit), 'utf8')) as { scopes: Record<string, { kinds: { units: { values: string[] } } }> };
    for (const scope of Object.values(data.scopes)) scope.kinds.units.values = scope.kinds.units.values.filter((r) => r !== third);
    writeFileSync(cacheFile(kit), JSON.stringify({ version: 1, scopes: data.scopes }));
    expect((await complete('units', 'get', '')).values).not.toContain(third);
    await listed();
    expect((await complete('units', 'get', '')).values).toContain(third);
  });

  it('keeps the cache private, holds no key, and ignores entries past their time or a file past its size', async () => {
    expect((await kit.run(['countries', '--json'])).exitCode).toBe(0);
    expect(fileMode(cacheFile(kit))).toBe(0o600);
    expect(fileMode(join(kit.home.configDir, 'cache'))).toBe(0o700);
    const text = readFileSync(cacheFile(kit), 'utf8');
    expect(text).not.toContain(kit.sb.apiKey);
    expect(cacheFiles(kit)).toEqual(['completion-values.json']);
    // Twelve hours on, nothing is offered.
    const data = JSON.parse(text) as { scopes: Record<string, { at: number; kinds: Record<string, { at: number }> }> };
    for (const s of Object.values(data.scopes)) for (const k of Object.values(s.kinds)) k.at -= 12 * 3600 * 1000;
    writeFileSync(cacheFile(kit), JSON.stringify(data));
    expect((await complete('pools', '--country', '')).values).toEqual([]);
    // A file grown past 8 MB is not read at all.
    writeFileSync(cacheFile(kit), `${' '.repeat(8 * 1024 * 1024)}${text}`);
    expect(await complete('pools', '--country', '')).toMatchObject({ values: [], directive: ':4' });
  });
});

describe('proxyctl __complete: the cache with several proxyctl processes at once', { timeout: 300_000 }, () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(() => kit.close());

  it('twelve commands writing it at once leave one whole file, no temp files, and values TAB offers', async () => {
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        kit.run([['pools', 'countries', 'providers', 'units'][i % 4]!, ...(i % 4 === 3 ? ['list'] : []), '--json']),
      ),
    );
    for (const r of runs) expect(r.exitCode, String(r.stderr)).toBe(0);
    // Readers never see half a file: every write was a whole file renamed into place.
    expect(cacheFiles(kit)).toEqual(['completion-values.json']);
    const data = JSON.parse(readFileSync(cacheFile(kit), 'utf8')) as { version: number };
    expect(data.version).toBe(1);
    // A lost update is allowed (it is a cache); a run after the burst fills what is missing.
    expect((await kit.run(['pools', '--json'])).exitCode).toBe(0);
    expect((await completeIn(kit, ['units', 'create', '--pool', ''])).values.length).toBeGreaterThan(0);
  });
});

describe('proxyctl __complete: profiles and the network', { timeout: 300_000 }, () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('offers the config file’s profile names, never their keys, and sends no request', async () => {
    const server = await startScriptedServer(() => new Promise(() => undefined)); // would hang forever
    try {
      mkdirSync(home.configDir, { recursive: true });
      const keys = ['sk_live_secretwork0000000001', 'sk_live_secretplay0000000002'];
      writeFileSync(
        join(home.configDir, 'config.json'),
        JSON.stringify({
          currentProfile: 'work',
          profiles: { work: { baseUrl: server.url, apiKey: keys[0] }, play: { baseUrl: server.url, apiKey: keys[1] } },
        }),
        { mode: 0o600 },
      );
      const run = async (...words: string[]) => {
        const r = await proxyctl(['__complete', ...words], { home });
        expect(r.exitCode).toBe(0);
        for (const k of keys) expect(String(r.stdout)).not.toContain(k);
        return String(r.stdout).split('\n').filter(Boolean);
      };
      expect(await run('profiles', 'use', '')).toEqual(['play', 'work', ':4']);
      expect(await run('profiles', 'rm', 'w')).toEqual(['work', ':4']);
      expect(await run('--profile', '')).toEqual(['play', 'work', ':4']);
      expect(await run('units', 'create', '--pool', '')).toEqual([':4']);
      expect(await run('units', 'get', '')).toEqual([':4']);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('proxyctl __complete: help, numbers, listen events, any-case values, swap targets (#27)', { timeout: 300_000 }, () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ balance: 100 });
  });
  afterAll(() => kit.close());
  const complete = (...words: string[]) => completeIn(kit, words);

  it('help offers the commands and topics, and under a command its subcommands', async () => {
    const top = await complete('help', '');
    expect(top.values).toEqual(expect.arrayContaining(['units', 'pools', 'webhook', 'completion', 'environment', 'exit-codes']));
    expect(top.values).not.toContain('__complete');
    expect(top.directive).toBe(':4');
    expect((await complete('help', 'e')).values).toEqual(['environment', 'exit-codes']);
    expect((await complete('help', 'units', '')).values).toEqual([
      'list',
      'get',
      'create',
      'extend',
      'swap',
      'change-protocol',
      'modify',
      'release',
      'usage',
      'check',
    ]);
    expect((await complete('help', 'units', 'cr')).stdout).toBe(
      'create\tbuy units from a pool (guided in a terminal when --pool/--period are missing)\n:4',
    );
    expect((await complete('help', 'webhook', 'l')).values).toEqual(['log', 'listen']);
    expect(await complete('help', 'nosuch', '')).toMatchObject({ values: [], directive: ':4' });
  });

  it('a flag or argument that takes a number or a duration offers nothing, not file names', async () => {
    const numbers = [
      ['units', 'create', '--count'],
      ['units', 'extend', '--max-spend'],
      ['units', 'extend', '--expiring-within'],
      ['units', 'list', '--limit'],
      ['units', 'list', '--page-size'],
      ['units', 'check', '--concurrency'],
      ['mcp', '--budget'],
      ['me', 'uptime', '--day'],
      ['webhook', 'listen', '--port'],
      ['webhook', 'log', '--interval'],
      ['units', 'list', '--timeout'],
      ['pools', '--rotation'],
    ];
    for (const words of numbers) {
      // The directive has noFileComp (4): the shell offers no file names either.
      expect(await complete(...words, ''), words.join(' ')).toMatchObject({ values: [], directive: ':36' });
    }
    expect(await complete('units', 'create', '--count=')).toMatchObject({ values: [], directive: ':36' });
    expect(await complete('sandbox', 'advance', '')).toMatchObject({ values: [], directive: ':36' });
  });

  it('webhook listen --on offers the webhook events of src/webhooks, in their order', async () => {
    expect(await complete('webhook', 'listen', '--on', '')).toMatchObject({ values: [...EVENT_NAMES], directive: ':36' });
    expect((await complete('webhook', 'listen', '--exec', 'true', '--on', 'unit.d')).values).toEqual(['unit.down']);
  });

  it('periods and other fixed sets ask the shell to keep their order (directive 32)', async () => {
    expect(await complete('units', 'create', '--period', '')).toMatchObject({
      values: ['3h', '12h', '24h', '7d', '30d'],
      directive: ':36',
    });
    // Cached values and commands are left to the shell's sorting.
    expect((await complete('units', '')).directive).toBe(':4');
  });

  it('lower-case input finds pool ids, countries and statuses; commands still match as typed', async () => {
    expect((await kit.run(['pools', '--json'])).exitCode).toBe(0);
    const pools = (await kit.api<{ data: { poolId: string }[] }>('/pools')).data.map((p) => p.poolId);
    const us = pools.filter((p) => p.startsWith('US-'));
    expect(us.length).toBeGreaterThan(1);
    expect([...(await complete('units', 'list', '--pool', 'us-')).values].sort()).toEqual([...us].sort());
    expect((await complete('units', 'list', `--pool=${us[0]!.toLowerCase()}`)).values).toContain(`--pool=${us[0]}`);
    expect((await complete('pools', '--country', 'u')).values).toContain('US');
    expect((await complete('units', 'list', '--status', 'act')).values).toEqual(['ACTIVE']);
    expect((await complete('units', 'L')).values).toEqual([]);
  });

  it('units swap REF --pool leaves out the unit’s own pool and the pools last seen unavailable', async () => {
    const res = await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools');
    const available = res.data.filter((p) => p.available).map((p) => p.poolId);
    const unavailable = res.data.filter((p) => !p.available).map((p) => p.poolId);
    expect(unavailable.length).toBeGreaterThan(0);
    const bought = await kit.run(['units', 'create', '--pool', available[0]!, '--period', '3h', '--json']);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    const ref = (JSON.parse(String(bought.stdout)) as { proxyRef: string }).proxyRef;
    expect((await kit.run(['pools', '--json'])).exitCode).toBe(0);
    const targets = (await complete('units', 'swap', ref, '--pool', '')).values;
    expect([...targets].sort()).toEqual(available.slice(1).sort());
    // Buying offers every available pool the catalogue listed, the unit's own included, and no
    // unavailable one (a purchase there fails); a list filter still offers them all.
    expect([...(await complete('units', 'create', '--pool', '')).values].sort()).toEqual([...available].sort());
    expect([...(await complete('units', 'list', '--pool', '')).values].sort()).toEqual(res.data.map((p) => p.poolId).sort());
    // After the swap the unit is elsewhere: its old pool is a target again, its new one is not.
    expect((await kit.run(['units', 'swap', ref, '--pool', available[1]!, '--json'])).exitCode).toBe(0);
    const after = (await complete('units', 'swap', ref, '--pool', '')).values;
    expect(after).toContain(available[0]);
    expect(after).not.toContain(available[1]);
  });
});

describe('proxyctl __complete: every command that reads the catalogue fills the cache (#27)', { timeout: 300_000 }, () => {
  let kit: Kit;
  beforeEach(async () => {
    kit = await startKit({ balance: 100 });
  });
  afterEach(() => kit.close());
  const complete = (...words: string[]) => completeIn(kit, words);
  const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });

  it('a guided units create, left at the pool question, has filled countries and that country’s pools', async () => {
    expect((await complete('units', 'create', '--country', '')).values).toEqual([]);
    const t = inTerminal(kitEnv(kit), ['units', 'create', '--period', '3h'], { columns: 100, rows: 40 });
    const r = await answerPrompts(t, [
      ['Country', KEY.enter],
      ['Pool', KEY.ctrlC],
    ]);
    expect(r.exitCode, t.screen()).toBe(130);
    expect((await kit.state()).units).toEqual([]);
    const countries = (await kit.api<{ data: { country: string }[] }>('/countries')).data.map((c) => c.country);
    expect([...(await complete('units', 'create', '--country', '')).values].sort()).toEqual([...countries].sort());
    const first = (await kit.api<{ data: { poolId: string }[] }>(`/pools?country=${countries[0]}`)).data.map((p) => p.poolId);
    expect([...(await complete('units', 'list', '--pool', '')).values].sort()).toEqual([...first].sort());
  });

  it('units create --pool, even a dry run, fills the pool it quoted from', async () => {
    const pool = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data.find((p) => p.available)!.poolId;
    expect((await complete('units', 'create', '--pool', '')).values).toEqual([]);
    const r = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--dry-run', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect((await complete('units', 'create', '--pool', '')).values).toEqual([pool]);
    expect((await kit.state()).units).toEqual([]);
  });

  it('units swap, asked or --same-country, fills the pools it read and the unit’s new pool', async () => {
    const pool = (await kit.api<{ data: { poolId: string; available: boolean; country: string }[] }>('/pools')).data.find(
      (p) => p.available,
    )!;
    const bought = await kit.run(['units', 'create', '--pool', pool.poolId, '--period', '3h', '--json']);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    const ref = (JSON.parse(String(bought.stdout)) as { proxyRef: string }).proxyRef;
    writeFileSync(cacheFile(kit), '{}');
    const swapped = await kit.run(['units', 'swap', ref, '--same-country', '--json']);
    expect(swapped.exitCode, String(swapped.stderr)).toBe(0);
    const moved = (JSON.parse(String(swapped.stdout)) as { poolId: string }).poolId;
    const inCountry = (await kit.api<{ data: { poolId: string; available: boolean }[] }>(`/pools?country=${pool.country}`)).data;
    expect([...(await complete('units', 'list', '--pool', '')).values].sort()).toEqual(inCountry.map((p) => p.poolId).sort());
    const targets = (await complete('units', 'swap', ref, '--pool', '')).values;
    expect([...targets].sort()).toEqual(
      inCountry
        .filter((p) => p.available && p.poolId !== moved)
        .map((p) => p.poolId)
        .sort(),
    );
    // Asked in a terminal: the pool list it read is remembered even when the question is left.
    writeFileSync(cacheFile(kit), '{}');
    const t = inTerminal(kitEnv(kit), ['units', 'swap', ref], { columns: 100, rows: 40 });
    const r = await answerPrompts(t, [[`Swap ${ref}`, KEY.ctrlC]]);
    expect(r.exitCode, t.screen()).toBe(130);
    const all = (await kit.api<{ data: { poolId: string }[] }>('/pools')).data.map((p) => p.poolId);
    expect([...(await complete('units', 'list', '--pool', '')).values].sort()).toEqual([...all].sort());
  });
});
