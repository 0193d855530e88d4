// End to end: the sandbox's real delivery pipeline → the built `proxyctl webhook listen`.
// Signatures are checked here with node:crypto, independently of src/webhooks/signature.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  createUnit,
  freePort,
  json,
  jsonLines,
  pointWebhookAt,
  proxyctl,
  signature,
  spawnListen,
  startScriptedServer,
  startWebhookSink,
  tempHome,
} from '../helpers/index.js';

const home = tempHome();
let sb: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  env = { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey };
});
afterAll(async () => {
  await sb.close();
  home.cleanup();
});

type Delivery = {
  id: string;
  eventId: string;
  event: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  responseStatus: number | null;
  nextAttemptAt: string | null;
};
const deliveries = () => sb.state().deliveries as Delivery[];

describe('webhook listen (built binary) with the sandbox', () => {
  it('receives real events from a unit purchase and from webhook test, with the secret read from the API', async () => {
    const listener = await spawnListen([], home, env);
    // Pointing the webhook at the receiver issues a new secret; listen re-reads it on the first mismatch.
    const set = await proxyctl(['webhook', 'set', listener.url, '--json'], { home, env });
    expect(set.exitCode).toBe(0);
    const secret = JSON.parse(String(set.stdout)).secret as string;

    const ref = await createUnit(sb);
    const created = await listener.waitFor(
      (r) => r.event === 'unit.created' && (r.payload as { data: { proxyRef: string } }).data.proxyRef === ref,
      'unit.created',
    );
    const sent = deliveries().find((d) => d.event === 'unit.created' && d.eventId === created.eventId)!;
    expect(sent).toBeDefined();
    expect(created).toMatchObject({ type: 'delivery', status: 200, redelivery: false, test: false, seen: 1 });
    expect(created.deliveryId).toBe(sent.id);
    expect(created.attemptId).not.toBe(sent.id);

    const test = await proxyctl(['webhook', 'test', '--json'], { home, env });
    expect(test.exitCode).toBe(0);
    expect(JSON.parse(String(test.stdout))).toMatchObject({ event: 'unit.created', status: 'DELIVERED', responseStatus: 200, attempts: 1 });
    const testRecord = await listener.waitFor((r) => r.test === true, 'the test event');
    expect((testRecord.payload as { test: boolean }).test).toBe(true);

    await sb.deliveriesIdle();
    const ours = deliveries().filter((d) => d.eventId === created.eventId || d.eventId === testRecord.eventId);
    expect(ours.map((d) => [d.status, d.responseStatus])).toEqual([
      ['DELIVERED', 200],
      ['DELIVERED', 200],
    ]);
    expect(sb.state().webhook).toMatchObject({ secret });

    const stopped = await listener.stop();
    // Ctrl-C is a listener's normal end: exit 0.
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toContain(`proxyctl webhook set ${listener.url}`);
    expect(stopped.stderr).toContain('Stopped: 2 deliveries received, 0 rejected.');
    expect(stopped.stderr).not.toContain(sb.apiKey);
  });

  it('--secret: 400 for missing or bad signatures, redeliveries recognised, --forward-to relays exact bytes and headers', async () => {
    const target = await startWebhookSink(204);
    const port = await freePort();
    const secret = await pointWebhookAt(sb, port);
    const listener = await spawnListen(
      ['--port', String(port), '--secret', 'whsec_old', '--secret', secret, '--forward-to', target.url],
      home,
    );
    try {
      // A real event: the forwarded body still verifies against the secret, so it is the signed bytes.
      const ref = await createUnit(sb);
      const rec = await listener.waitFor(
        (r) => r.event === 'unit.created' && (r.payload as { data: { proxyRef: string } }).data.proxyRef === ref,
        'unit.created',
      );
      expect(rec.secretIndex).toBe(1);
      expect(rec.forward).toMatchObject({ url: target.url, status: 204 });
      const relayed = target.received.at(-1)!;
      expect(relayed.headers['x-service-signature']).toBe(signature(relayed.bytes, secret));
      expect(relayed.headers['x-service-event']).toBe('unit.created');
      expect(relayed.headers['x-service-delivery']).toBe(rec.attemptId);
      expect(relayed.headers['x-api-key']).toBeUndefined();

      // A hand-made body with odd spacing and non-ASCII: relayed byte for byte; sent again under a
      // new delivery id it is recognised as a redelivery of the same event.
      const body = Buffer.from(
        '{ "id":"evt_hand_1",  "event":"unit.released","occurredAt":"2026-01-01T00:00:00Z","data":{"proxyRef":"PRX-ü"} }\n',
      );
      for (const delivery of ['dlv_a', 'dlv_b']) {
        const res = await fetch(listener.url, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'x-service-event': 'unit.released',
            'x-service-delivery': delivery,
            'x-service-timestamp': '1767225600',
            'x-service-signature': signature(body, secret),
          },
        });
        expect(res.status).toBe(200);
      }
      const second = await listener.waitFor((r) => r.attemptId === 'dlv_b' && r.forward !== undefined, 'the redelivery');
      expect(second).toMatchObject({ deliveryId: 'evt_hand_1', eventId: 'evt_hand_1', redelivery: true, seen: 2 });
      // The listener may print the two records in either order: wait for each, never assume.
      const first = await listener.waitFor((r) => r.attemptId === 'dlv_a' && r.forward !== undefined, 'the first delivery');
      expect(first).toMatchObject({ redelivery: false, seen: 1 });
      const handRelays = target.received.filter((g) => g.headers['x-service-event'] === 'unit.released');
      expect(handRelays).toHaveLength(2);
      for (const g of handRelays) {
        expect(g.bytes.equals(body)).toBe(true);
        expect(g.headers['x-service-timestamp']).toBe('1767225600');
        expect(g.headers['content-type']).toBe('application/json');
      }

      // Bad and missing signatures: 400, reported, never relayed.
      const relayedBefore = target.received.length;
      const bad = await fetch(listener.url, {
        method: 'POST',
        body,
        headers: { 'x-service-event': 'unit.released', 'x-service-signature': signature(body, 'whsec_wrong') },
      });
      expect(bad.status).toBe(400);
      const missing = await fetch(listener.url, { method: 'POST', body });
      expect(missing.status).toBe(400);
      const tampered = await fetch(listener.url, {
        method: 'POST',
        body: Buffer.concat([body, Buffer.from(' ')]),
        headers: { 'x-service-signature': signature(body, secret) },
      });
      expect(tampered.status).toBe(400);
      // The answers can arrive before the receiver's lines do.
      await listener.waitFor(() => listener.records.filter((r) => r.type === 'rejected').length === 3, 'three rejections');
      expect(listener.records.filter((r) => r.type === 'rejected').map((r) => [r.status, r.reason])).toEqual([
        [400, 'signature mismatch'],
        [400, 'missing signature'],
        [400, 'signature mismatch'],
      ]);
      expect(target.received.length).toBe(relayedBefore);
    } finally {
      const stopped = await listener.stop();
      expect(stopped.exitCode).toBe(0);
      await target.close();
    }
  });

  it('a failing receiver: retries on the sandbox clock, visible in webhook log and in webhook log --follow', async () => {
    const failing = await startScriptedServer((_req, res) => json(res, 500, { error: 'down' }));
    try {
      const patched = await fetch(`${sb.baseUrl}/api/reseller/v1/webhook`, {
        method: 'PATCH',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${failing.url}/hook` }),
      });
      expect(patched.status).toBe(200);

      const follow = proxyctl(['webhook', 'log', '--follow', '--interval', '1', '--event', 'unit.created', '-o', 'jsonl'], {
        home,
        env,
        timeout: 120_000,
      });
      // Event-driven waits (the test timeout bounds them): a fixed sleep here was the flake, as
      // under load the first poll came after the purchase and reported it as "existing".
      const { lines, stderr, until } = jsonLines<{ type: string; changed: string[]; delivery: Delivery }>(follow);
      // The notice comes once the first poll has read the log: from then on the purchase is "new".
      await until(() => stderr().includes('Following the delivery log'));

      const followed = (id: string, attempts: number) =>
        until(() => lines.some((l) => l.delivery.id === id && l.delivery.attempts === attempts));
      const ref = await createUnit(sb);
      await sb.deliveriesIdle();
      const mine = () =>
        deliveries().find(
          (d) =>
            d.event === 'unit.created' &&
            (JSON.parse((d as unknown as { payload: string }).payload) as { data: { proxyRef?: string } }).data.proxyRef === ref,
        )!;
      expect(mine()).toMatchObject({ status: 'PENDING', attempts: 1, responseStatus: 500 });
      const id = mine().id;
      await followed(id, 1);
      for (const [i, seconds] of [60, 300].entries()) {
        sb.advance(seconds);
        await sb.deliveriesIdle();
        await followed(id, i + 2);
      }
      const log = await proxyctl(['webhook', 'log', '--json', '--status', 'PENDING'], { home, env });
      expect(log.exitCode).toBe(0);
      const listed = (JSON.parse(String(log.stdout)) as Delivery[]).find((d) => d.id === mine().id)!;
      expect(listed).toMatchObject({ event: 'unit.created', status: 'PENDING', attempts: 3, maxAttempts: 6, responseStatus: 500 });
      expect(Date.parse(listed.nextAttemptAt!)).toBeGreaterThan(0);

      for (const [i, seconds] of [1800, 7200, 21600].entries()) {
        sb.advance(seconds);
        await sb.deliveriesIdle();
        await followed(id, i + 4);
      }
      const failed = JSON.parse(
        String((await proxyctl(['webhook', 'log', '--json', '--status', 'FAILED'], { home, env })).stdout),
      ) as Delivery[];
      const done = failed.find((d) => d.id === id)!;
      expect(done).toMatchObject({ status: 'FAILED', attempts: 6, responseStatus: 500, nextAttemptAt: null });
      // Six attempts at one event: the same payload id, a new X-Service-Delivery each time.
      const attempts = failing.requests.filter((r) => (JSON.parse(r.body) as { data: { proxyRef: string } }).data.proxyRef === ref);
      expect(attempts).toHaveLength(6);
      expect(new Set(attempts.map((r) => (JSON.parse(r.body) as { id: string }).id)).size).toBe(1);
      expect(new Set(attempts.map((r) => r.headers['x-service-delivery'])).size).toBe(6);

      // --follow saw the delivery appear once, then each attempt once, ending FAILED. A poll may
      // land between the event and its first attempt (it then shows attempt 0 first).
      const ofMine = lines.filter((l) => l.delivery.id === id);
      const story = ofMine.map((l) => [l.type, l.delivery.attempts, l.delivery.status]);
      if (story[0]![1] === 0) expect(story.shift()).toEqual(['new', 0, 'PENDING']);
      expect(story.slice(1)).toEqual([
        ['changed', 2, 'PENDING'],
        ['changed', 3, 'PENDING'],
        ['changed', 4, 'PENDING'],
        ['changed', 5, 'PENDING'],
        ['changed', 6, 'FAILED'],
      ]);
      expect(story[0]).toEqual([ofMine.length === 6 ? 'new' : 'changed', 1, 'PENDING']);
      expect(ofMine.find((l) => l.delivery.attempts === 1)!.delivery.responseStatus).toBe(500);
      expect(ofMine.at(-1)!.changed).toEqual(expect.arrayContaining(['status', 'attempts', 'nextAttemptAt']));
      follow.kill('SIGINT');
      expect((await follow).exitCode).toBe(0);
    } finally {
      await failing.close();
    }
  }, 180_000);
});
