// In-process tests of the webhook commands against the sandbox: exact exit codes, output and the
// sandbox's state afterwards.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createUnit, fakeIO, json, type ScriptedServer, signature, startScriptedServer, tempHome, trigger } from '../helpers/index.js';

let sb: Sandbox;
let receiver: ScriptedServer;
let env: Record<string, string>;
// The config dir (profiles, discovery cache) must never be the real user's.
const home = tempHome();

async function run(args: string[], opts: { tty?: boolean } = {}) {
  const io = fakeIO({ env, tty: opts.tty ?? false });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  env = { ...home.env, PROXYCTL_BASE_URL: sb.baseUrl, PROXYCTL_API_KEY: sb.apiKey };
  receiver = await startScriptedServer((_req, res) => json(res, 200, { ok: true }));
});
afterAll(async () => {
  await receiver.close();
  await sb.close();
  home.cleanup();
});
beforeEach(async () => {
  await run(['webhook', 'disable']);
});

const webhookState = () => sb.state().webhook as { url: string | null; secret: string | null; enabled: boolean };

describe('webhook set / get / disable', () => {
  it('set prints the new secret once (JSON carries it) and the sandbox stores the URL', async () => {
    const r = await run(['webhook', 'set', 'https://hooks.example.com/proxy', '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body).toEqual({ url: 'https://hooks.example.com/proxy', secret: webhookState().secret, enabled: true });
    expect(body.secret).toMatch(/^whsec_/);
    expect(r.err).toContain('Store this secret now');
    expect(r.err).not.toContain(sb.apiKey);
  });

  it('set shows the secret in full in a table, get masks it; get --json shows it as the API does', async () => {
    const set = await run(['webhook', 'set', 'https://hooks.example.com/a'], { tty: true });
    const secret = webhookState().secret!;
    expect(set.out).toContain(secret);
    const get = await run(['webhook', 'get'], { tty: true });
    expect(get.code).toBe(0);
    expect(get.out).toContain('https://hooks.example.com/a');
    expect(get.out).not.toContain(secret);
    expect(get.out).toContain(`${secret.slice(0, 8)}…(${secret.length} chars)`);
    const getJson = await run(['webhook', 'get', '--json']);
    expect(JSON.parse(getJson.out)).toEqual({ url: 'https://hooks.example.com/a', secret, enabled: true });
  });

  it('refuses plain http to another host with exit 2 before any request', async () => {
    const r = await run(['webhook', 'set', 'http://hooks.example.com/x']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('must use https');
    expect(webhookState().url).toBeNull();
    expect((await run(['webhook', 'set', 'not a url'])).code).toBe(2);
    expect((await run(['webhook', 'set', 'ftp://x.example.com/'])).code).toBe(2);
  });

  it('allows http to this machine with a warning', async () => {
    const r = await run(['webhook', 'set', 'http://127.0.0.1:9/hook', '--json']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('warning: plain http');
    expect(webhookState()).toMatchObject({ url: 'http://127.0.0.1:9/hook', enabled: true });
  });

  it('disable stops deliveries; --remove deletes the configuration', async () => {
    await run(['webhook', 'set', 'https://hooks.example.com/a']);
    const r = await run(['webhook', 'disable', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ enabled: false });
    expect(webhookState().enabled).toBe(false);
    await run(['webhook', 'set', 'https://hooks.example.com/a']);
    const rm = await run(['webhook', 'disable', '--remove', '--json']);
    expect(JSON.parse(rm.out)).toEqual({ enabled: false });
    expect(webhookState()).toEqual({ url: null, secret: null, enabled: false });
  });

  it('without a key: exit 3 and the key is never needed in argv', async () => {
    const io = fakeIO({ env: { ...home.env, PROXYCTL_BASE_URL: sb.baseUrl } });
    expect(await main(['webhook', 'get'], io)).toBe(3);
  });
});

describe('webhook test', () => {
  it('fires the sample event, waits for the attempt and shows the delivery from the log', async () => {
    await run(['webhook', 'set', `${receiver.url}/hook`]);
    const secret = webhookState().secret!;
    const before = receiver.requests.length;
    const r = await run(['webhook', 'test', '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.out);
    expect(d).toMatchObject({ event: 'unit.created', status: 'DELIVERED', attempts: 1, responseStatus: 200 });
    const got = receiver.requests.slice(before);
    expect(got).toHaveLength(1);
    const req = got[0]!;
    expect(req.headers['x-service-signature']).toBe(signature(req.body, secret));
    expect(JSON.parse(req.body)).toMatchObject({ event: 'unit.created', test: true });
    expect(r.err).toContain('acknowledged');
  });

  it('with no webhook configured: the API answers 409 (exit 8)', async () => {
    const r = await run(['webhook', 'test']);
    expect(r.code).toBe(8);
    expect(r.err).toContain('webhook_not_configured');
  });
});

describe('webhook log', () => {
  it('lists deliveries newest first with filters, --all across pages, and validates flags before any request', async () => {
    await run(['webhook', 'set', `${receiver.url}/hook`]);
    const ref = await createUnit(sb);
    await trigger(sb, 'unit.down', { proxyRef: ref });
    await trigger(sb, 'balance.low');
    await trigger(sb, 'unit.down', { proxyRef: ref, reason: 'quota_exceeded' });
    await sb.deliveriesIdle();
    // The control endpoint lists deliveries newest first too, independently of the API route.
    const all = sb.state().deliveries as { id: string; event: string }[];
    expect(all.length).toBeGreaterThanOrEqual(4);
    const r = await run(['webhook', 'log', '--json']);
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.out) as { id: string }[];
    expect(listed.map((d) => d.id)).toEqual(all.slice(0, 25).map((d) => d.id));
    const down = JSON.parse((await run(['webhook', 'log', '--event', 'unit.down', '--json'])).out) as { event: string }[];
    expect(down.length).toBe(all.filter((d) => d.event === 'unit.down').length);
    expect(new Set(down.map((d) => d.event))).toEqual(new Set(['unit.down']));
    const delivered = JSON.parse((await run(['webhook', 'log', '--status', 'delivered', '--page-size', '1', '--all', '--json'])).out) as {
      status: string;
    }[];
    expect(delivered.length).toBe((sb.state().deliveries as { status: string }[]).filter((d) => d.status === 'DELIVERED').length);
    expect((await run(['webhook', 'log', '--status', 'LOST'])).code).toBe(2);
    expect((await run(['webhook', 'log', '--page-size', '101'])).code).toBe(2);
    expect((await run(['webhook', 'log', '--page', '0'])).code).toBe(2);
    expect((await run(['webhook', 'log', '--follow', '--all'])).code).toBe(2);
    expect((await run(['webhook', 'log', '--follow', '--json'])).code).toBe(2);
  });
});

describe('webhook test on a server that describes the test operation elsewhere', () => {
  it('uses the path found in openapi.json (sandbox --alt-paths: POST /webhook/send-test)', async () => {
    const alt = await startSandbox({ port: 0, altPaths: true });
    const altHome = tempHome();
    try {
      const altEnv = { ...altHome.env, PROXYCTL_BASE_URL: alt.baseUrl, PROXYCTL_API_KEY: alt.apiKey };
      const io1 = fakeIO({ env: altEnv });
      expect(await main(['webhook', 'set', `${receiver.url}/alt`], io1)).toBe(0);
      const io = fakeIO({ env: altEnv });
      expect(await main(['webhook', 'test', '--json'], io)).toBe(0);
      expect(JSON.parse(io.out())).toMatchObject({ event: 'unit.created', status: 'DELIVERED' });
      expect(receiver.requests.filter((r) => r.url === '/alt')).toHaveLength(1);
    } finally {
      await alt.close();
      altHome.cleanup();
    }
  });
});
