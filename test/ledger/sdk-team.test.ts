// The SDK on a team's shared ledger (`ledger: { url, localDir }`): a Node script importing the built
// package entry on machine B buys within the daily budget the CLI set for the team on machine A
// (the purchase past it is a PolicyError, nothing charged), its debits show on machine A's `spend`
// with source sdk, once each; the database stopped, its purchase is refused before anything is
// charged (exit-9 error, the password in no message); and the script exits by itself when done,
// whether or not it calls client.close(). A real PostgreSQL server (test/helpers/postgres.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cents, type Kit, NODE, needing, type Postgres, pickPools, postgresMissing, startKit, startPostgres } from '../helpers/index.js';
import { cleanupMachines, type Machine, machine, succeeds } from '../helpers/team.js';

const SDK = fileURLToPath(new URL('../../dist/sdk.js', import.meta.url));

// No process.exit anywhere: the script must end by itself once its work is done.
const script = `
import { ResellerClient, createUnitsSafely } from ${JSON.stringify(SDK)};
const [baseUrl, apiKey, url, localDir, poolId, count, close] = process.argv.slice(1);
const client = new ResellerClient({ baseUrl, apiKey, ledger: { url, localDir, profile: 'script' } });
try {
  const r = await createUnitsSafely(client, { poolId, period: '24h', count: Number(count) });
  console.log(JSON.stringify({ ok: true, bought: r.bought, refs: r.units.map((u) => u.proxyRef) }));
} catch (err) {
  console.log(JSON.stringify({ ok: false, name: err.name, code: err.code, message: err.message, hint: err.hint }));
}
if (close === 'close') await client.close();
`;

interface Run {
  ok: boolean;
  bought?: number;
  refs?: string[];
  name?: string;
  code?: string;
  message?: string;
  hint?: string;
}

const missing = postgresMissing();
let pg: Postgres;
let kit: Kit | undefined;

beforeAll(async () => {
  if (!missing) pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.close();
});
afterEach(async () => {
  await kit?.close();
  kit = undefined;
  cleanupMachines();
});

let dbs = 0;
async function setup() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const [pool] = await pickPools(kit);
  const url = await pg.createDatabase(`sdk_team_${process.pid}_${++dbs}`);
  return { k: kit, url, poolId: pool!.poolId, price: pool!.prices['24h']! };
}

/** The script on machine `m`, its local journal in m's CLI ledger directory; exits by itself (the timeout only guards a hang). */
async function sdk(k: Kit, m: Machine, url: string, poolId: string, count: number, close = false) {
  const r = await execa(
    NODE,
    [
      '--input-type=module',
      '-e',
      script,
      k.sb.baseUrl,
      k.sb.apiKey,
      url,
      join(m.home.configDir, 'data', 'ledger'),
      poolId,
      String(count),
      close ? 'close' : '',
    ],
    { reject: false, timeout: 60_000 },
  );
  // It ended on its own, with nothing on stderr, and said what happened.
  expect(r.timedOut, 'the script did not exit by itself').toBe(false);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Run;
}

describe.skipIf(missing !== undefined)(needing('the SDK on a team ledger in PostgreSQL', missing), () => {
  it("the team's daily budget set with the CLI on machine A holds for an SDK script on machine B, whose debits show on A once each with source sdk", async () => {
    const { k, url, poolId, price } = await setup();
    const a = machine(k);
    await succeeds(a.run(['config', 'set', 'ledger-url', url]));
    await succeeds(a.run(['config', 'set', 'max-spend-per-day', (price * 3).toFixed(2)]));
    const b = machine(k);

    // B's script buys two; its next two would pass the team's budget: refused, nothing charged.
    const first = await sdk(k, b, url, poolId, 2, true);
    expect(first).toMatchObject({ ok: true, bought: 2 });
    const over = await sdk(k, b, url, poolId, 2);
    expect(over).toMatchObject({ ok: false, name: 'PolicyError', code: 'budget_exceeded' });
    let s = await k.state();
    expect(s.units).toHaveLength(2);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 2);

    // A buys the last unit the budget allows; after it, B's one more is refused too.
    await succeeds(a.run(['units', 'create', '--pool', poolId, '--period', '24h', '--json']));
    expect(await sdk(k, b, url, poolId, 1)).toMatchObject({ ok: false, name: 'PolicyError', code: 'budget_exceeded' });
    s = await k.state();
    expect(s.units).toHaveLength(3);
    expect(cents(1000 - s.balanceUsd)).toBe(cents(price) * 3);

    // A's spend holds every debit once: B's two with source sdk (and its profile), A's with cli.
    const spent = JSON.parse(String((await succeeds(a.run(['spend', '--json']))).stdout)) as {
      id: string;
      ref: string;
      priceUsd: number;
      source: string;
      profile?: string;
    }[];
    expect(spent.map((e) => e.id).sort()).toEqual(s.units.map((u) => `create:${u.proxyRef}`).sort());
    const fromSdk = spent.filter((e) => e.source === 'sdk');
    expect(fromSdk.map((e) => e.ref).sort()).toEqual([...first.refs!].sort());
    expect(fromSdk.every((e) => e.profile === 'script')).toBe(true);
    expect(spent.filter((e) => e.source === 'cli')).toHaveLength(1);
    expect(spent.reduce((x, e) => x + cents(e.priceUsd), 0)).toBe(cents(1000 - s.balanceUsd));
    // Nothing is left held in the database once the scripts are gone.
    expect(JSON.parse(String((await succeeds(a.run(['spend', 'holds', '--json']))).stdout))).toEqual([]);
  }, 120_000);

  it('the database stopped: the SDK purchase is refused before anything is charged, and the password is in no message', async () => {
    const { k, url, poolId, price } = await setup();
    const a = machine(k, { PROXYCTL_LEDGER_URL: url });
    const b = machine(k);
    await succeeds(a.run(['ledger', 'status']));
    expect(await sdk(k, b, url, poolId, 1)).toMatchObject({ ok: true, bought: 1 });
    await pg.stop();
    try {
      const down = await sdk(k, b, url, poolId, 1);
      expect(down).toMatchObject({ ok: false, name: 'LedgerUnavailableError', code: 'ledger_unavailable' });
      expect(down.message).toContain('the shared ledger postgres://proxyctl:***@127.0.0.1:');
      expect(down.message).toContain('nothing was charged');
      for (const text of [down.message!, down.hint ?? '']) {
        expect(text).not.toContain(pg.password);
        expect(text).not.toContain(encodeURIComponent(pg.password));
      }
      const s = await k.state();
      expect(s.units).toHaveLength(1);
      expect(cents(1000 - s.balanceUsd)).toBe(cents(price));
    } finally {
      await pg.start();
    }
    // Back up: nothing was kept aside, the one debit is in the team's spend once.
    const spent = JSON.parse(String((await succeeds(a.run(['spend', '--json']))).stdout)) as { source: string }[];
    expect(spent.map((e) => e.source)).toEqual(['sdk']);
  }, 120_000);

  it('a bad ledger option is a UsageError before any request', async () => {
    const { k, url } = await setup();
    const bad = `
import { ResellerClient } from ${JSON.stringify(SDK)};
const [baseUrl, apiKey, url] = process.argv.slice(1);
const cases = {
  both: { dir: '/tmp/x', url, localDir: '/tmp/x' },
  policy: { url, localDir: '/tmp/x', policy: { maxSpendPerDay: 1 } },
  noLocal: { url },
  notPg: { url: 'mysql://u:secret@127.0.0.1/db', localDir: '/tmp/x' },
  neither: {},
};
const out = {};
for (const [name, ledger] of Object.entries(cases)) {
  try {
    new ResellerClient({ baseUrl, apiKey, ledger });
    out[name] = 'accepted';
  } catch (err) {
    out[name] = { name: err.name, message: err.message };
  }
}
console.log(JSON.stringify(out));
`;
    const r = await execa(NODE, ['--input-type=module', '-e', bad, k.sb.baseUrl, k.sb.apiKey, url], { reject: false, timeout: 60_000 });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, { name: string; message: string }>;
    for (const name of ['both', 'policy', 'noLocal', 'notPg', 'neither']) expect(out[name], name).toMatchObject({ name: 'UsageError' });
    expect(out.both!.message).toContain('not both');
    expect(out.policy!.message).toContain('ledger.policy is not taken with ledger.url');
    expect(out.noLocal!.message).toContain('needs ledger.localDir');
    expect(out.notPg!.message).not.toContain('secret');
    expect((await k.state()).units).toHaveLength(0);
  }, 60_000);
});
