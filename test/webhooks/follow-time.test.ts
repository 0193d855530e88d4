// `webhook log --follow` (built binary, table lines) against the sandbox whose clock is days away
// from the machine's: each line starts with the delivery's own time (createdAt, as the log says),
// and a delivered one says when it was delivered; never the time the poll happened to read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { outputUntil, proxyctl, type ScriptedServer, startScriptedServer, tempHome } from '../helpers/index.js';

const home = tempHome();
let sb: Sandbox;
let receiver: ScriptedServer;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  receiver = await startScriptedServer((_req, res) => void res.writeHead(204).end());
  await fetch(`${sb.baseUrl}/api/reseller/v1/webhook`, {
    method: 'PATCH',
    headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/hook` }),
  });
});
afterAll(async () => {
  await receiver.close();
  await sb.close();
  home.cleanup();
});

type Logged = { id: string; createdAt: string; deliveredAt: string | null; status: string };
const logged = (id: string) => (sb.state().deliveries as Logged[]).find((d) => d.id === id)!;
/** The log's time as --follow prints it: to the second, in UTC. */
const second = (iso: string) => `${iso.slice(0, 19)}Z`;

describe('webhook log --follow', () => {
  it("starts every line with the delivery's own time, and a delivered one with when it was delivered", async () => {
    // Ten days and some hours ahead: the time a poll reads the log is nowhere near the deliveries'.
    sb.advance(10 * 86_400 + 3 * 3600 + 17 * 60 + 7);
    const old = sb.world.emit('unit.modified', { proxyRef: 'PRX-1' })!.id;
    await sb.deliveriesIdle();
    expect(logged(old).status).toBe('DELIVERED');

    const child = proxyctl(['webhook', 'log', '--follow', '--interval', '1'], {
      home,
      env: { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey },
      timeout: 120_000,
    });
    try {
      const first = await outputUntil(child, 'stdout', (t) => t.includes(`${old}  unit.modified`) && t.endsWith('\n'));
      const o = logged(old);
      expect(first.split('\n')).toContain(
        `${second(o.createdAt)}  ${old}  unit.modified  DELIVERED  attempt 1/6  HTTP 204  delivered ${second(o.deliveredAt!)}`,
      );

      // A delivery made while following: it too carries its own time, on every line about it.
      sb.advance(3600);
      const later = sb.world.emit('unit.released', { proxyRef: 'PRX-2' })!.id;
      const text = await outputUntil(child, 'stdout', (t) => t.includes(later) && /DELIVERED.*\n/.test(t.slice(t.indexOf(later))));
      const mine = text.split('\n').filter((l) => l.includes(later));
      expect(mine.length).toBeGreaterThan(0);
      const l = logged(later);
      for (const line of mine) expect(line.startsWith(`${second(l.createdAt)}  ${later}  unit.released  `)).toBe(true);
      expect(mine.at(-1)).toContain(`HTTP 204  delivered ${second(l.deliveredAt!)}`);
    } finally {
      child.kill('SIGINT');
      expect((await child).exitCode).toBe(0);
    }
  });
});
