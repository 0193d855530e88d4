// `webhook listen --exec CMD [--on EVENT]`: CMD runs once per event (never per redelivery), after
// the 200 went out, with the payload on stdin and PROXYCTL_* in its environment; failures are
// logged and the listener goes on; Ctrl-C waits for running commands, a second one stops waiting.
// Slow commands wait on a fifo the test opens only once it has seen what it checks: no timing.
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  createUnit,
  freePort,
  pointWebhookAt,
  proxyctl,
  signature,
  spawnListen,
  tempHome,
  trigger,
  type ListenProcess,
} from '../helpers/index.js';

const home = tempHome();
let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'proxyctl-exec-'));
});
afterAll(async () => {
  await sb.close();
  home.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A listener the sandbox's webhook points at, with its secret, running `--exec cmd` plus `args`. */
async function listenWithExec(cmd: string, args: string[] = []): Promise<{ listener: ListenProcess; secret: string }> {
  const port = await freePort();
  const secret = await pointWebhookAt(sb, port);
  const listener = await spawnListen(['--port', String(port), '--secret', secret, '--exec', cmd, ...args], home, { DIR: dir });
  return { listener, secret };
}

/** Posts a signed body to the listener as the service would; its HTTP status. */
async function deliver(listener: ListenProcess, secret: string, body: string, deliveryId: string, event = 'unit.down'): Promise<number> {
  const res = await fetch(listener.url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-event': event,
      'x-service-delivery': deliveryId,
      'x-service-timestamp': '1767225600',
      'x-service-signature': signature(body, secret),
    },
  });
  await res.arrayBuffer();
  return res.status;
}

const downBody = (id: string, ref: string) =>
  JSON.stringify({ id, event: 'unit.down', occurredAt: '2026-01-01T00:00:00Z', data: { proxyRef: ref, reason: 'server_unreachable' } });

/** A fifo that slow commands read one line from; `release` writes it (opening waits for the reader). */
async function gate(name: string): Promise<{ path: string; release(): Promise<void> }> {
  const path = join(dir, name);
  await execa('mkfifo', [path]);
  return { path, release: () => writeFile(path, 'go\n') };
}

type SentDelivery = { id: string; event: string; status: string; responseStatus: number | null; payload: string };
const sent = () => sb.state().deliveries as SentDelivery[];
const payloadRef = (d: SentDelivery) => (JSON.parse(d.payload) as { data: { proxyRef?: string } }).data.proxyRef;

describe('webhook listen --exec', () => {
  it('runs once per event of --on, never per redelivery, with the payload on stdin and PROXYCTL_* set', async () => {
    const cmd = `cat > "$DIR/body.$PROXYCTL_DELIVERY_ID"; printf '%s|%s|%s\\n' "$PROXYCTL_EVENT" "$PROXYCTL_PROXY_REF" "$PROXYCTL_DELIVERY_ID" >> "$DIR/runs"`;
    const { listener, secret } = await listenWithExec(cmd, ['--on', 'unit.down']);
    try {
      const first = await createUnit(sb); // unit.created: not an --on event
      await trigger(sb, 'unit.down', { proxyRef: first });
      await listener.stderrUntil(new RegExp(`exec #1 unit\\.down ${first} \\(delivery [^)]+\\): exit 0`));
      await sb.deliveriesIdle();
      const down = sent().find((d) => d.event === 'unit.down' && payloadRef(d) === first)!;
      expect(down).toMatchObject({ status: 'DELIVERED', responseStatus: 200 });

      // The same event again under a new delivery id (what the service does on a retry): answered, not run.
      expect(await deliver(listener, secret, down.payload, 'dlv_again')).toBe(200);
      await listener.waitFor((r) => r.attemptId === 'dlv_again', 'the redelivery');
      expect(listener.records.find((r) => r.attemptId === 'dlv_again')).toMatchObject({ deliveryId: down.id, redelivery: true, seen: 2 });
      // A later event is #2: had the redelivery run, it would have taken that number.
      const second = await createUnit(sb);
      await trigger(sb, 'unit.down', { proxyRef: second });
      await listener.stderrUntil(new RegExp(`exec #2 unit\\.down ${second} \\(delivery [^)]+\\): exit 0`));
      // Its record comes on stdout, another pipe than the exec line: wait for it too.
      await listener.waitFor(
        (r) => r.event === 'unit.down' && (r.payload as { data: { proxyRef?: string } }).data.proxyRef === second,
        'unit.down',
      );

      const created = listener.records.filter((r) => r.event === 'unit.created');
      expect(created.length).toBeGreaterThanOrEqual(2);
      const downs = listener.records.filter((r) => r.event === 'unit.down' && r.redelivery === false);
      expect(downs[0]!.deliveryId).toBe(down.id);
      expect(readFileSync(join(dir, 'runs'), 'utf8')).toBe(
        `unit.down|${first}|${downs[0]!.deliveryId}\nunit.down|${second}|${downs[1]!.deliveryId}\n`,
      );
      // stdin is the payload's exact bytes.
      expect(readFileSync(join(dir, `body.${downs[0]!.deliveryId}`), 'utf8')).toBe(down.payload);
      expect(listener.stderr()).not.toContain('exec #3');
    } finally {
      expect((await listener.stop()).exitCode).toBe(0);
    }
  });

  it('one delivery id in webhook test, webhook log, the listener and PROXYCTL_DELIVERY_ID; PROXYCTL_TEST=1 only for a test', async () => {
    const cmd = `printf '%s|%s|%s|%s|%s\\n' "$PROXYCTL_EVENT" "$PROXYCTL_DELIVERY_ID" "$PROXYCTL_ATTEMPT_ID" "\${PROXYCTL_TEST-unset}" "$PROXYCTL_PROXY_REF" >> "$DIR/ids"`;
    const port = await freePort();
    const secret = await pointWebhookAt(sb, port);
    // A PROXYCTL_TEST in the listener's own environment must not reach a real event's command.
    const listener = await spawnListen(['--port', String(port), '--secret', secret, '--exec', cmd], home, {
      DIR: dir,
      PROXYCTL_TEST: 'inherited',
    });
    const env = { PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey };
    try {
      const test = await proxyctl(['webhook', 'test', '--json'], { home, env });
      expect(test.exitCode).toBe(0);
      const id = (JSON.parse(String(test.stdout)) as { id: string }).id;
      await listener.stderrUntil(`exec #1 unit.created PRX-0 (delivery ${id}): exit 0`);
      // stdout (the records) and stderr (the exec lines) are two pipes: wait for each.
      const received = await listener.waitFor((r) => r.test === true, 'the test delivery');
      expect(received).toMatchObject({ deliveryId: id, test: true });
      expect(received.attemptId).toEqual(expect.any(String));
      expect(received.attemptId).not.toBe(id);
      const log = await proxyctl(['webhook', 'log', '--json', '--limit', '1'], { home, env });
      expect((JSON.parse(String(log.stdout)) as { id: string }[]).map((d) => d.id)).toEqual([id]);

      const ref = await createUnit(sb);
      await listener.stderrUntil(new RegExp(`exec #2 unit\\.created ${ref} \\(delivery dlv_\\w+\\): exit 0`));
      const real = sent().find((d) => d.event === 'unit.created' && payloadRef(d) === ref)!;
      const realAttempt = (await listener.waitFor((r) => r.deliveryId === real.id, 'the purchase')).attemptId;
      expect(readFileSync(join(dir, 'ids'), 'utf8')).toBe(
        `unit.created|${id}|${received.attemptId}|1|PRX-0\nunit.created|${real.id}|${realAttempt}|unset|${ref}\n`,
      );
    } finally {
      expect((await listener.stop()).exitCode).toBe(0);
    }
  });

  it('answers 200 (the service records the delivery) while a slow CMD is still running', async () => {
    const g = await gate('slow');
    const { listener } = await listenWithExec(`read line < "${g.path}"; echo "released $line"`);
    try {
      const ref = await createUnit(sb);
      await listener.stderrUntil(new RegExp(`exec #1 unit\\.created ${ref} .*: started`));
      await sb.deliveriesIdle();
      const d = sent().find((x) => x.event === 'unit.created' && payloadRef(x) === ref)!;
      // Delivered and answered while CMD cannot have finished: it waits on the gate.
      expect(d).toMatchObject({ status: 'DELIVERED', responseStatus: 200 });
      expect(listener.stderr()).not.toMatch(/exec #1 .*: exit/);
      await g.release();
      await listener.stderrUntil(/exec #1 unit\.created .*: exit 0/);
      expect(listener.stderr()).toContain('released go');
    } finally {
      expect((await listener.stop()).exitCode).toBe(0);
    }
  });

  it('a failing or crashing CMD is logged and the listener goes on', async () => {
    const cmd = 'case "$PROXYCTL_PROXY_REF" in PRX-fail) echo "no luck" >&2; exit 3;; PRX-crash) kill -9 $$;; *) exit 0;; esac';
    const { listener, secret } = await listenWithExec(cmd);
    try {
      expect(await deliver(listener, secret, downBody('dlv_f1', 'PRX-fail'), 'att_f1')).toBe(200);
      await listener.stderrUntil(/exec #1 unit\.down PRX-fail \(delivery dlv_f1\): exit 3/);
      expect(await deliver(listener, secret, downBody('dlv_f2', 'PRX-crash'), 'att_f2')).toBe(200);
      await listener.stderrUntil(/exec #2 unit\.down PRX-crash \(delivery dlv_f2\): killed by SIGKILL/);
      expect(await deliver(listener, secret, downBody('dlv_f3', 'PRX-ok'), 'att_f3')).toBe(200);
      await listener.stderrUntil(/exec #3 unit\.down PRX-ok \(delivery dlv_f3\): exit 0/);
      expect(listener.stderr()).toContain('no luck');
    } finally {
      const stopped = await listener.stop();
      expect(stopped.exitCode).toBe(0);
      expect(stopped.stderr).toContain('Stopped: 3 deliveries received, 0 rejected.');
    }
  });

  it('Ctrl-C waits for a running CMD, then exits 0', async () => {
    const g = await gate('ctrlc');
    const { listener, secret } = await listenWithExec(`read line < "${g.path}"`);
    expect(await deliver(listener, secret, downBody('dlv_c1', 'PRX-wait'), 'att_c1')).toBe(200);
    await listener.stderrUntil(/exec #1 unit\.down PRX-wait \(delivery dlv_c1\): started/);
    listener.kill('SIGINT');
    await listener.stderrUntil('waiting for 1 running command (#1 unit.down PRX-wait (delivery dlv_c1)); interrupt again to stop waiting');
    expect(listener.stderr()).not.toContain('Stopped:');
    await g.release();
    const done = await listener.exited();
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toMatch(/exec #1 unit\.down PRX-wait \(delivery dlv_c1\): exit 0[\s\S]*Stopped: 1 delivery received/);
  });

  it('a second Ctrl-C stops waiting, names the command that did not finish, exit 130', async () => {
    const g = await gate('twice');
    const { listener, secret } = await listenWithExec(`echo $$ > "$DIR/pid.twice"; echo 'on the gate' >&2; read line < "${g.path}"`);
    try {
      expect(await deliver(listener, secret, downBody('dlv_t1', 'PRX-\u001b[31mred'), 'att_t1')).toBe(200);
      await listener.stderrUntil('on the gate');
      listener.kill('SIGINT');
      await listener.stderrUntil('interrupt again to stop waiting');
      listener.kill('SIGINT');
      const done = await listener.exited();
      expect(done.exitCode).toBe(130);
      expect(done.stderr).toContain('not finished (1), no longer waited for:\n  --exec #1 unit.down PRX-\\x1b[31mred (delivery dlv_t1)');
      expect(done.stderr).not.toContain('\u001b[31m');
    } finally {
      // The command left running: it wrote its pid before it started waiting.
      const pid = Number(await readFile(join(dir, 'pid.twice'), 'utf8').catch(() => ''));
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });

  it('--on with an unknown event, or without --exec, is exit 2 before listening', async () => {
    const unknown = await proxyctl(['webhook', 'listen', '--port', '0', '--secret', 's', '--exec', 'true', '--on', 'unit.gone'], { home });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown event "unit.gone" for --on');
    expect(unknown.stderr).toContain('unit.created, unit.extended, unit.swapped');
    expect(unknown.stderr).not.toContain('Listening');
    const alone = await proxyctl(['webhook', 'listen', '--port', '0', '--secret', 's', '--on', 'unit.down'], { home });
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('--on chooses the events for --exec');
  });
});
