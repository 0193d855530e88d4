// Real SIGINT and SIGTERM to the spawned binary in the middle of `units create --count 30`.
// The sandbox's provisioning engine is gated, so "mid-batch" is a state the test sets up, not a
// moment it hopes to hit: 3 purchases done, 4 held on the wire, 23 not started. Afterwards the
// sandbox's units and balance are compared with what proxyctl printed.
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cents, cleanEnv, type Kit, outputUntil, pickPools, startKit } from '../helpers/index.js';

const PASS_FIRST = 3;
const LANES = 4;
let kit: Kit | undefined;
let dir: string | undefined;
afterEach(async () => {
  gate?.release();
  await kit?.close();
  kit = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

interface Gate {
  /** Resolves once `n` purchases are held inside the engine (debited, not yet answered). */
  held(n: number): Promise<void>;
  release(): void;
}
let gate: Gate | undefined;

/** The first `passFirst` purchases go through; later ones wait in the engine until released. */
function gateEngine(k: Kit, passFirst: number): Gate {
  let calls = 0;
  let open = false;
  const waiting: (() => void)[] = [];
  const watchers: { n: number; resolve: () => void }[] = [];
  k.sb.world.engineDelay = () => {
    calls += 1;
    if (open || calls <= passFirst) return Promise.resolve();
    return new Promise<void>((resolve) => {
      waiting.push(resolve);
      for (const w of watchers.filter((x) => waiting.length >= x.n)) w.resolve();
    });
  };
  gate = {
    held: (n) => new Promise<void>((resolve) => (waiting.length >= n ? resolve() : watchers.push({ n, resolve }))),
    release() {
      open = true;
      for (const r of waiting.splice(0)) r();
    },
  };
  return gate;
}

async function setup() {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const pools = await pickPools(kit);
  const pool = pools[0]!.poolId;
  return { kit, pool, price: pools[0]!.prices['3h']!, gate: gateEngine(kit, PASS_FIRST) };
}

function env(k: Kit) {
  return cleanEnv({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });
}

/** The idempotency keys the sandbox is processing right now (held in the engine). */
function keysInFlight(k: Kit): string[] {
  return [...k.sb.world.state.idempotency.entries()].filter(([, r]) => r.inFlight).map(([key]) => key.split('\u0000')[1]!);
}

const baseKeyOf = (stderr: string) => /idempotency key ([0-9a-f-]{36})/.exec(stderr)?.[1];

/** `units create --count 30` (--json unless told), sent SIGINT with 3 units bought and 4 held on the wire. */
async function interruptedBatch(k: Kit, pool: string, g: Gate, format = ['--json']): Promise<{ child: ResultPromise }> {
  const child = execa('node', [BIN, 'units', 'create', '--pool', pool, '--period', '3h', '--count', '30', ...format], {
    reject: false,
    env: env(k),
    timeout: 60_000,
  });
  await Promise.all([outputUntil(child, 'stderr', (t) => t.includes(`[${PASS_FIRST}/30] created`)), g.held(LANES)]);
  const waiting = outputUntil(child, 'stderr', (t) => t.includes(`letting ${LANES} purchases in flight finish`));
  child.kill('SIGINT');
  await waiting;
  // Wrapped: a ResultPromise is itself awaitable, and returning it would wait for the exit.
  return { child };
}

describe('signals during a bulk create', () => {
  it('SIGINT mid-batch: in-flight purchases finish, every unit bought is printed (--json), exit 130', async () => {
    const { kit, pool, price, gate } = await setup();
    const { child } = await interruptedBatch(kit, pool, gate);
    gate.release();
    const r = await child;
    expect(r.exitCode).toBe(130);
    const printed = (JSON.parse(String(r.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef).sort();
    expect(printed).toHaveLength(PASS_FIRST + LANES);
    const s = await kit.state();
    expect(s.units.map((u) => u.proxyRef).sort()).toEqual(printed);
    expect(cents(1000 - s.balanceUsd)).toBe(printed.length * cents(price));
    const key = baseKeyOf(String(r.stderr));
    expect(r.stderr).toContain(`${PASS_FIRST + LANES} of 30 created`);
    expect(r.stderr).toContain(`${30 - PASS_FIRST - LANES} not started`);
    expect(r.stderr).toContain(`--idempotency-key ${key}`);
  }, 90_000);

  it('SIGTERM mid-batch with -o conn > file: the file holds every unit bought, exit 130', async () => {
    const { kit, pool, price, gate } = await setup();
    dir = mkdtempSync(join(tmpdir(), 'proxyctl-signals-'));
    const out = join(dir, 'proxies.txt');
    // exec: the signal goes to proxyctl itself, with its stdout on the file as a user's shell would.
    const child = execa(
      'sh',
      ['-c', `exec node "$0" "$@" > '${out}'`, BIN, 'units', 'create', '--pool', pool, '--period', '3h', '--count', '30', '-o', 'conn'],
      {
        reject: false,
        env: env(kit),
        extendEnv: true,
        timeout: 60_000,
      },
    );
    await Promise.all([outputUntil(child, 'stderr', (t) => t.includes(`[${PASS_FIRST}/30] created`)), gate.held(LANES)]);
    const waiting = outputUntil(child, 'stderr', (t) => t.includes(`SIGTERM received: letting ${LANES} purchases in flight finish`));
    child.kill('SIGTERM');
    await waiting;
    gate.release();
    const r = await child;
    expect(r.exitCode).toBe(130);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').sort();
    const s = await kit.state();
    expect(lines).toEqual(s.units.map((u) => `${u.ip}:${u.port}:${u.credentials!.username}:${u.credentials!.password}`).sort());
    expect(lines).toHaveLength(PASS_FIRST + LANES);
    expect(cents(1000 - s.balanceUsd)).toBe(lines.length * cents(price));
    expect(r.stderr).toContain(`--idempotency-key ${baseKeyOf(String(r.stderr))}`);
  }, 90_000);

  it('SIGINT mid-batch without a format: the table lists every unit bought', async () => {
    const { kit, pool, gate } = await setup();
    const { child } = await interruptedBatch(kit, pool, gate, ['--no-color']);
    gate.release();
    const r = await child;
    expect(r.exitCode).toBe(130);
    const s = await kit.state();
    expect(s.units).toHaveLength(PASS_FIRST + LANES);
    const rows = String(r.stdout)
      .split('\n')
      .filter((l) => /PRX-\d+/.test(l));
    expect(rows.map((l) => /PRX-\d+/.exec(l)![0]).sort()).toEqual(s.units.map((u) => u.proxyRef).sort());
  }, 90_000);

  it('a second SIGINT exits at once and names the purchases in flight with their keys; a re-run settles them', async () => {
    const { kit, pool, price, gate } = await setup();
    const { child } = await interruptedBatch(kit, pool, gate);
    child.kill('SIGINT');
    // The gate is still closed: proxyctl exits while its 4 purchases are held by the server.
    const r = await child;
    expect(r.exitCode).toBe(130);
    const held = keysInFlight(kit);
    expect(held).toHaveLength(LANES);
    const stderr = String(r.stderr);
    expect(stderr).toContain(`outcome unknown for ${LANES} purchases`);
    for (const k of held) expect(stderr).toContain(`idempotency key ${k}`);
    const before = await kit.state();
    const named = /bought before the interrupt \(not printed\): (.*)/.exec(stderr)?.[1]?.split(', ').sort();
    expect(named).toEqual(before.units.map((u) => u.proxyRef).sort());
    const key = baseKeyOf(stderr)!;
    expect(stderr).toContain(`re-run the same command with --idempotency-key ${key}`);

    // The held purchases complete after proxyctl is gone; the re-run (the same command: a key is
    // bound to its request) replays those 7, charging nothing for them, and buys the 23 not started.
    gate.release();
    await kit.sb.deliveriesIdle();
    await new Promise<void>((resolve) => {
      const poll = () => (keysInFlight(kit).length === 0 ? resolve() : setTimeout(poll, 20));
      poll();
    });
    const settled = await kit.state();
    expect(settled.units).toHaveLength(PASS_FIRST + LANES);
    const again = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--count', '30', '--idempotency-key', key, '--json']);
    expect(again.exitCode).toBe(0);
    const refs = (JSON.parse(String(again.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef);
    expect(refs).toHaveLength(30);
    expect(refs).toEqual(expect.arrayContaining(settled.units.map((u) => u.proxyRef)));
    expect(String(again.stderr)).toContain(`charged ${(23 * price).toFixed(2)} USD`);
    const after = await kit.state();
    expect(after.units.map((u) => u.proxyRef).sort()).toEqual([...refs].sort());
    expect(cents(1000 - after.balanceUsd)).toBe(30 * cents(price));
  }, 90_000);
});
