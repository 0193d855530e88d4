// `webhook log --follow` (built binary) against the sandbox when more than one page (100) of
// deliveries arrives between two polls, and when older deliveries change status: every new
// delivery is printed once, and every change once, however deep in the log it is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { jsonLines, proxyctl, type ScriptedServer, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

interface Line {
  type: string;
  changed: string[];
  delivery: { id: string; status: string; attempts: number };
}

let sb: Sandbox;
let home: TempHome;
let receiver: ScriptedServer;
let answer = 204;

beforeEach(async () => {
  sb = await startSandbox({ port: 0, rateLimit: 100_000 });
  home = tempHome();
  answer = 204;
  receiver = await startScriptedServer((_req, res) => void res.writeHead(answer).end());
  const r = await fetch(`${sb.baseUrl}/api/reseller/v1/webhook`, {
    method: 'PATCH',
    headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/hook` }),
  });
  expect(r.status).toBe(200);
});
afterEach(async () => {
  await receiver.close();
  await sb.close();
  home.cleanup();
});

/** Starts --follow and resolves once its first poll has read the log (the notice on stderr). */
async function follow() {
  const child = proxyctl(['webhook', 'log', '--follow', '--interval', '1', '-o', 'jsonl'], {
    home,
    env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey },
    timeout: 170_000,
  });
  const { lines, stderr, until } = jsonLines<Line>(child);
  await until(() => stderr().includes('Following the delivery log'));
  return { child, lines, until };
}

/** `n` events at once, between two polls (synchronous: no poll can land in the middle). */
function burst(n: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(sb.world.emit('unit.modified', { proxyRef: `PRX-${i}` })!.id);
  return ids;
}

const linesOf = (lines: Line[], id: string) => lines.filter((l) => l.delivery.id === id);

describe('webhook log --follow pages back', () => {
  it('a burst of 250 deliveries between two polls: each printed once as new, each delivery once', async () => {
    const f = await follow();
    const ids = burst(250);
    await sb.deliveriesIdle();
    // A marker after everything was delivered: once it shows DELIVERED, every poll that could
    // show the burst's records has run.
    const marker = burst(1)[0]!;
    await sb.deliveriesIdle();
    await f.until(() => f.lines.some((l) => l.delivery.id === marker && l.delivery.status === 'DELIVERED'));

    for (const id of ids) {
      const mine = linesOf(f.lines, id);
      expect(
        mine.filter((l) => l.type === 'new'),
        id,
      ).toHaveLength(1);
      expect(mine[0]!.type).toBe('new');
      // Seen PENDING first: then exactly one change to DELIVERED; seen DELIVERED first: no change.
      const statuses = mine.map((l) => l.delivery.status);
      expect([['PENDING', 'DELIVERED'], ['DELIVERED']]).toContainEqual(statuses);
    }
    expect(f.lines.filter((l) => l.type === 'existing')).toEqual([]);
    f.child.kill('SIGINT');
    expect((await f.child).exitCode).toBe(0);
  }, 180_000);

  it('retries that change status deep in the log: each final DELIVERED printed once', async () => {
    answer = 500;
    const failing = burst(90);
    await sb.deliveriesIdle();
    const f = await follow();
    // The first poll shows the newest 10 of what exists and tracks all 90 pending ones.
    expect(f.lines.map((l) => l.type)).toEqual(Array(10).fill('existing'));
    answer = 204;
    // 150 newer deliveries push the pending ones to pages 2 and 3; then their retries succeed.
    const pushed = burst(150);
    await sb.deliveriesIdle();
    sb.advance(60);
    await sb.deliveriesIdle();
    const marker = burst(1)[0]!;
    await sb.deliveriesIdle();
    await f.until(() => f.lines.some((l) => l.delivery.id === marker && l.delivery.status === 'DELIVERED'));

    const states = sb.state().deliveries as { id: string; status: string; attempts: number }[];
    for (const id of failing) {
      expect(states.find((d) => d.id === id)).toMatchObject({ status: 'DELIVERED', attempts: 2 });
      const changes = linesOf(f.lines, id).filter((l) => l.type === 'changed');
      expect(
        changes.map((l) => [l.delivery.status, l.delivery.attempts]),
        id,
      ).toEqual([['DELIVERED', 2]]);
      expect(changes[0]!.changed).toEqual(expect.arrayContaining(['status', 'attempts']));
    }
    expect(new Set(f.lines.filter((l) => l.type === 'new').map((l) => l.delivery.id))).toEqual(new Set([...pushed, marker]));
    expect(f.lines.filter((l) => l.type === 'new')).toHaveLength(151);
    f.child.kill('SIGINT');
    expect((await f.child).exitCode).toBe(0);
  }, 180_000);
});
