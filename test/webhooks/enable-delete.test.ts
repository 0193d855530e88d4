// `webhook disable` / `enable` / `delete` (built binary) against the sandbox: disabling makes the
// API forget URL and secret, so the URL is remembered in the profile (0600), `enable` sets it
// again with a new secret shown once, and `delete` (alias `disable --remove`) keeps nothing.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { type Kit, startKit } from '../helpers/index.js';

let kit: Kit;
beforeEach(async () => {
  kit = await startKit();
});
afterEach(async () => {
  await kit.close();
});

const hook = () => kit.sb.state().webhook as { url: string | null; secret: string | null; enabled: boolean };
const configFile = () => join(kit.home.configDir, 'config.json');
const profiles = () => (JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles: Record<string, Record<string, unknown>> }).profiles;
/** Requests to the webhook resource the sandbox has received so far. */
const webhookRequests = () => kit.sb.requestLog().filter((r) => r.url.includes('/webhook')).length;

describe('webhook disable, then enable', () => {
  it('disable remembers the URL in the profile; enable sets it again with a new secret, shown once', async () => {
    const set = await kit.run(['webhook', 'set', 'https://hooks.example.com/a', '--json']);
    const first = (JSON.parse(String(set.stdout)) as { secret: string }).secret;

    const off = await kit.run(['webhook', 'disable', '--json']);
    expect(off.exitCode).toBe(0);
    expect(JSON.parse(String(off.stdout))).toEqual({ url: null, secret: null, enabled: false });
    expect(off.stderr).toContain(
      'Webhook deliveries disabled. To send them to https://hooks.example.com/a again: proxyctl webhook enable (it issues a new secret).',
    );
    expect(hook()).toEqual({ url: null, secret: null, enabled: false });
    expect(profiles().default!.disabledWebhook).toEqual({ url: 'https://hooks.example.com/a', baseUrl: kit.sb.baseUrl });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);

    const get = await kit.run(['webhook', 'get']);
    expect(get.stderr).toContain(
      'No webhook is set. To set https://hooks.example.com/a again (webhook disable turned it off): proxyctl webhook enable',
    );

    const on = await kit.run(['webhook', 'enable', '--json']);
    expect(on.exitCode).toBe(0);
    const enabled = JSON.parse(String(on.stdout)) as { url: string; secret: string; enabled: boolean };
    expect(enabled).toEqual({ url: 'https://hooks.example.com/a', secret: hook().secret, enabled: true });
    expect(enabled.secret).toMatch(/^whsec_/);
    expect(enabled.secret).not.toBe(first);
    expect(on.stderr).toContain('Store this secret now');
    expect(profiles().default!.disabledWebhook).toBeUndefined();

    // Nothing is remembered any more: refused, exit 2, before any request.
    const before = webhookRequests();
    const again = await kit.run(['webhook', 'enable']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('no disabled webhook URL is remembered for profile "default"');
    expect(again.stderr).toContain('set one with: proxyctl webhook set URL');
    expect(webhookRequests()).toBe(before);
    expect(hook().secret).toBe(enabled.secret);
  });

  it('enable never replaces a webhook enabled since (exit 2, secret unchanged), and says so when it is the same URL', async () => {
    await kit.run(['webhook', 'set', 'https://hooks.example.com/a']);
    expect((await kit.run(['webhook', 'disable'])).exitCode).toBe(0);
    await kit.run(['webhook', 'set', 'https://hooks.example.com/b']);
    const secret = hook().secret;
    const r = await kit.run(['webhook', 'enable']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'a webhook is already enabled at https://hooks.example.com/b; enabling https://hooks.example.com/a would replace it and its secret',
    );
    expect(r.stderr).toContain('proxyctl webhook set https://hooks.example.com/a');
    expect(hook()).toEqual({ url: 'https://hooks.example.com/b', secret, enabled: true });

    await kit.run(['webhook', 'set', 'https://hooks.example.com/a']);
    const same = hook().secret;
    const s = await kit.run(['webhook', 'enable']);
    expect(s.exitCode).toBe(0);
    expect(s.stderr).toContain('The webhook is already enabled at https://hooks.example.com/a; nothing changed');
    expect(hook().secret).toBe(same);
  });

  it('a URL remembered for another API is not set on this one', async () => {
    await kit.run(['webhook', 'set', 'https://hooks.example.com/a']);
    await kit.run(['webhook', 'disable']);
    const other = await startSandbox({ port: 0 });
    try {
      const r = await kit.run(['webhook', 'enable'], { env: { PROXYCTL_BASE_URL: other.baseUrl, PROXYCTL_API_KEY: other.apiKey } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`was disabled on ${kit.sb.baseUrl}, not on ${other.baseUrl}`);
      expect(r.stderr).toContain('proxyctl webhook set https://hooks.example.com/a');
      expect(other.state().webhook).toEqual({ url: null, secret: null, enabled: false });
    } finally {
      await other.close();
    }
  });
});

describe('webhook delete', () => {
  it('deletes URL and secret, names them, forgets what disable remembered; disable --remove does the same', async () => {
    await kit.run(['webhook', 'set', 'https://hooks.example.com/a']);
    await kit.run(['webhook', 'disable']);
    await kit.run(['webhook', 'set', 'https://hooks.example.com/b']);
    const del = await kit.run(['webhook', 'delete', '--json']);
    expect(del.exitCode).toBe(0);
    expect(JSON.parse(String(del.stdout))).toEqual({ enabled: false });
    expect(del.stderr).toContain(
      'Webhook deleted: https://hooks.example.com/b and its secret removed. Forgot https://hooks.example.com/a, which webhook disable had remembered.',
    );
    expect(hook()).toEqual({ url: null, secret: null, enabled: false });
    expect(profiles().default!.disabledWebhook).toBeUndefined();
    expect((await kit.run(['webhook', 'enable'])).exitCode).toBe(2);

    await kit.run(['webhook', 'set', 'https://hooks.example.com/c']);
    const rm = await kit.run(['webhook', 'disable', '--remove', '--json']);
    expect(rm.exitCode).toBe(0);
    expect(JSON.parse(String(rm.stdout))).toEqual({ enabled: false });
    expect(rm.stderr).toContain('Webhook deleted: https://hooks.example.com/c and its secret removed.');
    expect(hook()).toEqual({ url: null, secret: null, enabled: false });
    expect(kit.sb.requestLog().filter((r) => r.method === 'DELETE' && r.url.endsWith('/webhook'))).toHaveLength(2);
  });

  it('webhook --help lists enable and delete', async () => {
    const help = String((await kit.run(['webhook', '--help'])).stdout);
    expect(help).toMatch(/^ {2}enable {2,}set again the URL that webhook disable turned off/m);
    expect(help).toMatch(/^ {2}delete {2,}delete the webhook: URL and secret removed/m);
  });
});
