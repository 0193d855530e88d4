// What the webhook commands and `sandbox trigger` say (built binary, sandbox): true, and in
// proxyctl's words: a command to run, never the API's method and path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnit, type Kit, type ScriptedServer, proxyctl, startKit, startScriptedServer, tempHome } from '../helpers/index.js';

let kit: Kit;
let receiver: ScriptedServer;
beforeAll(async () => {
  kit = await startKit();
  receiver = await startScriptedServer((_req, res) => void res.writeHead(204).end());
});
afterAll(async () => {
  await receiver.close();
  await kit.close();
});

const API_WORDS = /\b(GET|POST|PUT|PATCH|DELETE) \//;

describe('webhook test with no webhook enabled', () => {
  it('names the proxyctl command to run, not PATCH /webhook; keeps code, status and request id', async () => {
    await kit.run(['webhook', 'delete']);
    const r = await kit.run(['webhook', 'test']);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(
      /no webhook is enabled, so the test event has nowhere to go \(code webhook_not_configured, HTTP 409, request id req_\w+\)/,
    );
    expect(r.stderr).toContain('set one with: proxyctl webhook set URL');
    expect(r.stderr).not.toMatch(API_WORDS);

    const j = await kit.run(['webhook', 'test', '--json']);
    expect(j.exitCode).toBe(8);
    const e = (JSON.parse(String(j.stderr)) as { error: { code: string; status: number; message: string } }).error;
    expect(e).toMatchObject({
      code: 'webhook_not_configured',
      status: 409,
      message: 'no webhook is enabled, so the test event has nowhere to go',
    });
    expect(String(j.stderr)).not.toMatch(API_WORDS);
  });

  it('after webhook disable, points at webhook enable and the URL it would set', async () => {
    await kit.run(['webhook', 'set', `${receiver.url}/hook`]);
    await kit.run(['webhook', 'disable']);
    const r = await kit.run(['webhook', 'test']);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`proxyctl webhook enable sets ${receiver.url}/hook again (webhook disable turned it off)`);
  });
});

describe('sandbox trigger', () => {
  it('unit.up with a webhook enabled does not claim none is configured; a real event is queued', async () => {
    await kit.run(['webhook', 'set', `${receiver.url}/hook`]);
    const ref = await createUnit(kit.sb);
    const down = await kit.run(['sandbox', 'trigger', 'unit.down', '--unit', ref]);
    expect(down.exitCode).toBe(0);
    expect(down.stderr).toMatch(/^delivery dlv_\w+ queued \(see proxyctl webhook log\)$/m);
    const up = await kit.run(['sandbox', 'trigger', 'unit.up', '--unit', ref]);
    expect(up.exitCode).toBe(0);
    expect(up.stderr).not.toContain('no webhook');
    expect(up.stderr).toContain('unit.up is a sandbox action that restores the proxies, not a webhook event: nothing is delivered for it');
    expect((kit.sb.state().webhook as { enabled: boolean }).enabled).toBe(true);
  });

  it('with no webhook enabled, says so and names the command that sets one', async () => {
    await kit.run(['webhook', 'delete']);
    const r = await kit.run(['sandbox', 'trigger', 'balance.low']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('no webhook is enabled, so nothing was delivered (set one with: proxyctl webhook set URL)');
  });
});

describe('webhook listen without a secret or credentials', () => {
  it('says how to give one in proxyctl terms (exit 2)', async () => {
    const home = tempHome();
    try {
      const r = await proxyctl(['webhook', 'listen', '--port', '0'], { home });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('webhook listen needs the webhook secret to verify deliveries');
      expect(r.stderr).toContain('proxyctl login');
      expect(r.stderr).not.toMatch(API_WORDS);
      const help = await proxyctl(['webhook', 'listen', '--help'], { home });
      expect(String(help.stdout)).not.toMatch(API_WORDS);
      const disable = await proxyctl(['webhook', 'disable', '--help'], { home });
      expect(String(disable.stdout)).not.toMatch(/PATCH|url=null/);
    } finally {
      home.cleanup();
    }
  });
});
