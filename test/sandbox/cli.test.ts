// `proxyctl sandbox` as a user runs it: the built binary, --port 0 --json, SIGTERM, and the
// trigger/advance/state helpers talking to the running server.
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, firstLine, proxyctl, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());

describe('proxyctl sandbox', () => {
  it('--port 0 --json prints {baseUrl, apiKey, disabledApiKey} first, serves, exits 0 on SIGTERM', async () => {
    const child = execa('node', [BIN, 'sandbox', '--port', '0', '--json'], { reject: false, env: cleanEnv(home.env) });
    const info = JSON.parse(await firstLine(child)) as { baseUrl: string; apiKey: string; disabledApiKey: string };
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.apiKey).toMatch(/^sk_sandbox_main_/);
    expect(info.disabledApiKey).toMatch(/^sk_sandbox_disabled_/);
    const r = await fetch(`${info.baseUrl}/api/reseller/v1/account`, { headers: { 'x-api-key': info.apiKey } });
    expect(r.status, await r.text()).toBe(200);

    const env = { PROXYCTL_BASE_URL: info.baseUrl, PROXYCTL_API_KEY: info.apiKey };
    const adv = await proxyctl(['sandbox', 'advance', '60', '--json'], { home, env });
    expect(adv.exitCode, String(adv.stderr)).toBe(0);
    expect(JSON.parse(String(adv.stdout)).now).toMatch(/^\d{4}-/);
    const trig = await proxyctl(['sandbox', 'trigger', 'balance.low', '--json'], { home, env });
    expect(trig.exitCode, String(trig.stderr)).toBe(0);
    expect(JSON.parse(String(trig.stdout))).toMatchObject({ event: 'balance.low', deliveries: [] });
    const bad = await proxyctl(['sandbox', 'trigger', 'unit.down', '--unit', 'PRX-404'], { home, env });
    expect(bad.exitCode, String(bad.stderr)).toBe(5);
    const st = await proxyctl(['sandbox', 'state'], { home, env });
    expect(JSON.parse(String(st.stdout)).balanceUsd).toBe(1000);

    child.kill('SIGTERM');
    const done = await child;
    expect(done.exitCode, String(done.stderr)).toBe(0);
  });

  it('human output shows the keys and the export hint; flags configure the keys', async () => {
    const child = execa('node', [BIN, 'sandbox', '--port', '0', '--api-key', 'sk_sandbox_main_custom', '--balance', '5'], {
      reject: false,
      env: cleanEnv(home.env),
    });
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('export PROXYCTL_BASE_URL=')) resolve();
      });
    });
    expect(out).toContain('sk_sandbox_main_custom');
    expect(out).toMatch(/export PROXYCTL_BASE_URL=http:\/\/127\.0\.0\.1:\d+ PROXYCTL_API_KEY=sk_sandbox_main_custom/);
    const base = /PROXYCTL_BASE_URL=(\S+)/.exec(out)![1]!;
    const r = await fetch(`${base}/api/reseller/v1/account`, { headers: { 'x-api-key': 'sk_sandbox_main_custom' } });
    expect(((await r.json()) as { balanceUsd: number }).balanceUsd).toBe(5);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });

  it('a bad flag is a usage error (exit 2)', async () => {
    const r = await proxyctl(['sandbox', '--port', 'http'], { home });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--port');
  });

  it('a starting balance the sandbox cannot keep to the cent is a usage error (exit 2), not a null balance', async () => {
    const r = await proxyctl(['sandbox', '--port', '0', '--balance', '1e308'], { home });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('balance must be from 0 to 1000000000000');
  });

  it('trigger without a base URL is a usage error', async () => {
    const r = await proxyctl(['sandbox', 'trigger', 'unit.down'], { home });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('PROXYCTL_BASE_URL');
  });
});
