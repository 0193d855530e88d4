// Ctrl-C in the middle of a bulk extend or release: a real SIGINT to the spawned binary with 3
// units done, 4 requests held on the wire and the rest not started (a scripted front forwards to
// the sandbox and holds the matching requests, so "mid-run" is a state the test sets up). The
// summary names the units done and the units not started and prints the command that finishes
// the rest; running that command does exactly the rest, against the sandbox's state.
import { execa } from 'execa';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BIN,
  cents,
  cleanEnv,
  type Kit,
  outputUntil,
  type RecordedRequest,
  ran,
  type ScriptedServer,
  seedFleet,
  startKit,
  startScriptedServer,
} from '../helpers/index.js';

const HOUR = 3_600_000;
const UNITS = 12;
const PASS_FIRST = 3;
const LANES = 4;

let kit: Kit | undefined;
let front: (ScriptedServer & { release(): void }) | undefined;
afterEach(async () => {
  front?.release();
  await front?.close();
  front = undefined;
  await kit?.close();
  kit = undefined;
});

/**
 * The sandbox behind a scripted server that forwards every request as it came, except that
 * requests matching `hold` after the first `passFirst` wait until `release()`.
 */
async function holdingFront(k: Kit, hold: (q: RecordedRequest) => boolean, passFirst: number) {
  let passed = 0;
  let open = false;
  const waiting: (() => void)[] = [];
  const watchers: { n: number; resolve: () => void }[] = [];
  const forward = async (q: RecordedRequest, res: ServerResponse) => {
    const headers: Record<string, string> = {};
    for (const name of ['x-api-key', 'content-type', 'idempotency-key']) {
      const v = q.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const answer = await fetch(`${k.sb.baseUrl}${q.url}`, { method: q.method, headers, ...(q.bytes.length ? { body: q.bytes } : {}) });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, name) => {
      if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding'].includes(name)) out[name] = v;
    });
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
  const server = await startScriptedServer(async (q, res) => {
    if (hold(q) && !open && ++passed > passFirst) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        for (const w of watchers.filter((x) => waiting.length >= x.n)) w.resolve();
      });
    }
    await forward(q, res);
  });
  front = {
    ...server,
    release() {
      open = true;
      for (const r of waiting.splice(0)) r();
    },
  };
  return {
    front,
    /** Resolves once `n` requests are held. */
    held: (n: number) => new Promise<void>((resolve) => (waiting.length >= n ? resolve() : watchers.push({ n, resolve }))),
  };
}

/**
 * Runs `args` (the front's URL in the environment, or given by `--base-url` with `viaFlag`), SIGINTs
 * it once 3 are done and 4 held, then lets the held ones answer.
 */
async function interrupted(k: Kit, held: (n: number) => Promise<void>, args: string[], done: string, viaFlag = false) {
  const env = cleanEnv({ ...k.home.env, PROXYCTL_API_KEY: k.sb.apiKey, ...(viaFlag ? {} : { PROXYCTL_BASE_URL: front!.url }) });
  if (viaFlag) args = [...args, '--base-url', front!.url];
  const child = execa('node', [BIN, ...args], { reject: false, env, timeout: 60_000 });
  await Promise.all([outputUntil(child, 'stderr', (t) => t.includes(`[${PASS_FIRST}/${UNITS}] ${done}`)), held(LANES)]);
  child.kill('SIGINT');
  // The first Ctrl-C starts nothing new and says so, naming the requests on the wire; once it has
  // (not before: an answer landing first would start another item), they are answered.
  await outputUntil(child, 'stderr', (t) => t.includes(`interrupted: starting no more; letting ${LANES} requests in flight finish`));
  front!.release();
  const r = await child;
  return { r, env };
}

/** "N of M verb: A, B", "not started: C, D" and "to finish the rest: proxyctl …" out of the summary. */
function summary(stderr: string, verb: string) {
  const done = new RegExp(`^(\\d+) of ${UNITS} ${verb}: (.+)$`, 'm').exec(stderr);
  const rest = /^ {2}not started: (.+)$/m.exec(stderr);
  const command = /^to finish the rest: (proxyctl .+)$/m.exec(stderr);
  return {
    done: done ? done[2]!.split(', ') : [],
    notStarted: rest ? rest[1]!.split(', ') : [],
    command: command?.[1],
  };
}

describe('Ctrl-C during a bulk extend', () => {
  it('names the units extended and not started, and the printed command extends exactly the rest', { timeout: 120_000 }, async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const refs = seedFleet(
      kit,
      Array.from({ length: UNITS }, () => ({ hoursLeft: 5 })),
    );
    const { prices } = await kit.api<{ prices: Record<string, number> }>('/prices');
    const before = new Map((await kit.state()).units.map((u) => [u.proxyRef, Date.parse(u.expiresAt)]));
    const { front, held } = await holdingFront(kit, (q) => q.method === 'POST' && q.url.endsWith('/extend'), PASS_FIRST);

    const { r, env } = await interrupted(kit, held, ['units', 'extend', ...refs, '--period', '7d', '--yes'], 'extended');
    const stderr = String(r.stderr);
    expect(r.exitCode, stderr).toBe(130);
    const s = summary(stderr, 'extended');
    const moved = (await kit.state()).units.filter((u) => Date.parse(u.expiresAt) !== before.get(u.proxyRef)).map((u) => u.proxyRef);
    expect(s.done.length).toBe(PASS_FIRST + LANES);
    expect([...s.done].sort()).toEqual([...moved].sort());
    expect(s.notStarted).toEqual(refs.filter((ref) => !moved.includes(ref)));
    expect(s.command).toBe(`proxyctl units extend ${s.notStarted.join(' ')} --period 7d`);

    const again = await ran(execa('node', [BIN, ...s.command!.split(' ').slice(1)], { reject: false, env, timeout: 60_000 }));
    expect(again.code, again.err).toBe(0);
    const after = await kit.state();
    for (const u of after.units) expect((Date.parse(u.expiresAt) - before.get(u.proxyRef)!) / HOUR).toBe(168);
    expect(cents(1000 - after.balanceUsd)).toBe(UNITS * cents(prices['7d']!));
    // Each unit was asked once, across both runs.
    const extends_ = front.requests.filter((q) => q.method === 'POST' && q.url.endsWith('/extend')).map((q) => q.url);
    expect(extends_.length).toBe(UNITS);
    expect(new Set(extends_).size).toBe(UNITS);
  });
});

describe('Ctrl-C during a bulk release', () => {
  it('names the units released and not started, and the printed command (with the --base-url given) releases exactly the rest', {
    timeout: 120_000,
  }, async () => {
    kit = await startKit({ balance: 1000, rateLimit: 10_000 });
    const refs = seedFleet(
      kit,
      Array.from({ length: UNITS }, () => ({ hoursLeft: 50 })),
    );
    const { front, held } = await holdingFront(kit, (q) => q.method === 'DELETE', PASS_FIRST);

    // The base URL given as a flag: the printed command repeats it, so it acts on the same account.
    const { r, env } = await interrupted(kit, held, ['units', 'release', ...refs, '--yes'], 'released', true);
    const stderr = String(r.stderr);
    expect(r.exitCode, stderr).toBe(130);
    const s = summary(stderr, 'released');
    const gone = (await kit.state()).units.filter((u) => u.status === 'RELEASED').map((u) => u.proxyRef);
    expect(s.done.length).toBe(PASS_FIRST + LANES);
    expect([...s.done].sort()).toEqual([...gone].sort());
    expect(s.notStarted).toEqual(refs.filter((ref) => !gone.includes(ref)));
    expect(s.command).toBe(`proxyctl units release ${s.notStarted.join(' ')} --yes --base-url ${front.url}`);

    const again = await ran(execa('node', [BIN, ...s.command!.split(' ').slice(1)], { reject: false, env, timeout: 60_000 }));
    expect(again.code, again.err).toBe(0);
    expect((await kit.state()).units.map((u) => u.status)).toEqual(refs.map(() => 'RELEASED'));
    const deletes = front.requests.filter((q) => q.method === 'DELETE').map((q) => q.url);
    expect(deletes.length).toBe(UNITS);
    expect(new Set(deletes).size).toBe(UNITS);
  });
});
