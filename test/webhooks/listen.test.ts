// In-process tests of `webhook listen`: the human lines, start-up failures, and shutdown on abort.
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO, type FakeIO, json, signature, startScriptedServer, tempHome } from '../helpers/index.js';

// The config dir must never be the real user's, even where no command should open it.
const home = tempHome();
afterAll(() => home.cleanup());

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function listen(args: string[], env: Record<string, string> = {}) {
  const io: FakeIO = fakeIO({ env: { ...home.env, ...env } });
  const controller = new AbortController();
  const done = main(['webhook', 'listen', '--port', '0', ...args], io, { signal: controller.signal });
  await until(() => /on (http:\/\/\S+\/)/.test(io.err()) || io.err().includes('error'), 'the banner');
  const url = /on (http:\/\/\S+\/)/.exec(io.err())?.[1];
  return {
    io,
    url: url!,
    stop: async () => {
      controller.abort();
      return done;
    },
  };
}

describe('webhook listen (in-process)', () => {
  it('prints one human line per delivery and exits 0 when interrupted', async () => {
    const l = await listen(['--secret', 's1']);
    const body = JSON.stringify({
      id: 'dlv_9',
      event: 'unit.down',
      occurredAt: '2026-01-01T00:00:00Z',
      data: { proxyRef: 'PRX-4', reason: 'quota_exceeded' },
    });
    const res = await fetch(l.url, {
      method: 'POST',
      body,
      headers: { 'x-service-signature': signature(body, 's1'), 'x-service-delivery': 'att-1', 'x-service-event': 'unit.down' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    const get = await fetch(l.url);
    expect(get.status).toBe(405);
    await until(() => l.io.out().split('\n').length >= 3, 'two lines');
    const [first, second] = l.io.out().split('\n');
    // The delivery's own id (the payload's, as webhook log shows it), not the attempt's header.
    expect(first).toMatch(/^\d\d:\d\d:\d\d {2}✓ 200 {2}unit\.down {2}dlv_9 {2}unit PRX-4 down \(quota_exceeded\)$/);
    expect(second).toContain('rejected: method not allowed');
    expect(await l.stop()).toBe(0);
    expect(l.io.err()).toContain('Stopped: 1 delivery received, 1 rejected.');
  });

  it('a payload without an id: the line names the attempt as such, never as the delivery', async () => {
    const l = await listen(['--secret', 's1']);
    const body = '{"event":"unit.released","data":{"proxyRef":"PRX-3"}}';
    await fetch(l.url, { method: 'POST', body, headers: { 'x-service-signature': signature(body, 's1'), 'x-service-delivery': 'att-7' } });
    await fetch(l.url, { method: 'POST', body, headers: { 'x-service-signature': 'sha256=00', 'x-service-delivery': 'att-8' } });
    await until(() => l.io.out().split('\n').length >= 3, 'two lines');
    const [ok, bad] = l.io.out().split('\n');
    expect(ok).toMatch(/ {2}unit\.released {2}attempt att-7 {2}unit PRX-3 released$/);
    expect(bad).toMatch(/ {2}- {2}attempt att-8 {2}rejected: malformed signature$/);
    expect(await l.stop()).toBe(0);
  });

  it('reports the status of --forward-to, and a relay that cannot connect', async () => {
    const target = await startScriptedServer((_req, res) => json(res, 502, {}));
    const l = await listen(['--secret', 's1', '--forward-to', `${target.url}/in`]);
    const body = '{"id":"evt_1","event":"balance.low","data":{"balance":3,"threshold":50}}';
    await fetch(l.url, { method: 'POST', body, headers: { 'x-service-signature': signature(body, 's1') } });
    await until(() => l.io.out().includes('→'), 'the relay result');
    expect(l.io.out()).toMatch(/balance 3 below the threshold 50 {2}→ 502 \(\d+ms\)/);
    expect(target.requests[0]!.body).toBe(body);
    await target.close();
    await fetch(l.url, { method: 'POST', body, headers: { 'x-service-signature': signature(body, 's1') } });
    await until(() => l.io.out().includes('failed'), 'the relay failure');
    expect(l.io.out()).toContain('redelivery #1 of evt_1');
    expect(l.io.out()).toContain('→ failed: ECONNREFUSED');
    expect(await l.stop()).toBe(0);
  });

  it('a delivery whose relay is still running at Ctrl-C is still reported (and counted)', async () => {
    const target = await startScriptedServer(); // accepts, never answers
    try {
      const l = await listen(['--secret', 's1', '--forward-to', `${target.url}/in`]);
      const body = '{"id":"evt_5","event":"unit.released","data":{"proxyRef":"PRX-5"}}';
      const res = await fetch(l.url, { method: 'POST', body, headers: { 'x-service-signature': signature(body, 's1') } });
      expect(res.status).toBe(200);
      expect(await l.stop()).toBe(0);
      // The service saw a 200: the delivery must not vanish from the output.
      expect(l.io.out()).toContain('unit.released');
      expect(l.io.out()).toMatch(/→ failed: .*stopped/);
      expect(l.io.err()).toContain('1 delivery received');
    } finally {
      await target.close();
    }
  });

  it('a busy port, a bad --forward-to, -o json, and no secret at all are usage errors (exit 2)', async () => {
    const busy = await startScriptedServer();
    const port = busy.port;
    const io = fakeIO({ env: home.env });
    expect(await main(['webhook', 'listen', '--port', String(port), '--secret', 's'], io)).toBe(2);
    expect(io.err()).toContain(`port ${port} is already in use`);
    await busy.close();
    expect(await main(['webhook', 'listen', '--forward-to', 'not a url', '--secret', 's'], fakeIO({ env: home.env }))).toBe(2);
    expect(await main(['webhook', 'listen', '--port', '70000', '--secret', 's'], fakeIO({ env: home.env }))).toBe(2);
    expect(await main(['webhook', 'listen', '--json', '--secret', 's'], fakeIO({ env: home.env }))).toBe(2);
    const none = fakeIO({ env: home.env });
    expect(await main(['webhook', 'listen', '--port', '0'], none)).toBe(2);
    expect(none.err()).toContain('needs the webhook secret');
    expect(none.err()).toContain('--secret');
  });
});
