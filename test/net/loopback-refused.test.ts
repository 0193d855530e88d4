// A base URL on this machine where nothing listens is most often a sandbox that is not running:
// the refusal says how to start one there (exit 9 all the same, the contract's network failure).
// A refusal that is not the API's own address (the HTTPS proxy's) does not.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAccount, loginWithStdin, proxyctl, startScriptedServer, tempHome, type TempHome } from '../helpers/index.js';

let home: TempHome;

beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

/** A port on `host` that was just free: listened on, then closed. */
async function closedPort(host = '127.0.0.1'): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, host, r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

async function ipv6Loopback(): Promise<boolean> {
  const s = createServer();
  return new Promise((resolve) => {
    s.once('error', () => resolve(false));
    s.listen(0, '::1', () => s.close(() => resolve(true)));
  });
}

const run = (args: string[], env: Record<string, string>) => proxyctl(args, { home, env: { PROXYCTL_API_KEY: 'sk_test_refused', ...env } });

describe('a refused connection to a loopback base URL', () => {
  it('says to start proxyctl sandbox on that port, exit 9', async () => {
    const port = await closedPort();
    const r = await run(['account'], { PROXYCTL_BASE_URL: `http://127.0.0.1:${port}` });
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toBe(
      `error: connection refused by 127.0.0.1:${port} (code connection_refused)\n` +
        `nothing listens there; for a local sandbox, start one: proxyctl sandbox --port ${port} (or check the base URL)`,
    );
    expect(String(r.stdout)).toBe('');
  });

  it('with -o json the hint is in the error object; localhost names no --host', async () => {
    const port = await closedPort();
    const r = await run(['units', 'list', '--json'], { PROXYCTL_BASE_URL: `http://localhost:${port}` });
    expect(r.exitCode).toBe(9);
    expect(JSON.parse(String(r.stderr))).toEqual({
      error: {
        code: 'connection_refused',
        message: `connection refused by localhost:${port}`,
        hint: `nothing listens there; for a local sandbox, start one: proxyctl sandbox --port ${port} (or check the base URL)`,
      },
    });
  });

  it('an https loopback URL gets no sandbox hint: the sandbox serves plain http only', async () => {
    const port = await closedPort();
    const r = await run(['account'], { PROXYCTL_BASE_URL: `https://127.0.0.1:${port}` });
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toContain(`connection refused by 127.0.0.1:${port}`);
    expect(String(r.stderr)).not.toContain('proxyctl sandbox');
  });

  it('another loopback address is named with --host', async () => {
    const port = await closedPort('127.0.0.2').catch(() => undefined);
    const host = port === undefined ? '::1' : '127.0.0.2';
    if (port === undefined && !(await ipv6Loopback())) return;
    const p = port ?? (await closedPort('::1'));
    const url = host === '::1' ? `http://[::1]:${p}` : `http://${host}:${p}`;
    const r = await run(['me'], { PROXYCTL_BASE_URL: url });
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toContain(`start one: proxyctl sandbox --host ${host} --port ${p} (or check the base URL)`);
  });

  it("a stored profile's base URL, whose server has gone, gets the same hint", async () => {
    const profileHome = tempHome();
    try {
      const server = await startScriptedServer((_req, res) => answerAccount(res));
      const login = await loginWithStdin(profileHome, server.url, 'local', 'sk_test_profile');
      expect(login.exitCode, String(login.stderr)).toBe(0);
      await server.close();
      const r = await proxyctl(['account', '--profile', 'local'], { home: profileHome });
      expect(r.exitCode).toBe(9);
      expect(String(r.stderr)).toContain(
        `error: connection refused by 127.0.0.1:${server.port} (code connection_refused)\n` +
          `nothing listens there; for a local sandbox, start one: proxyctl sandbox --port ${server.port} (or check the base URL)`,
      );
    } finally {
      profileHome.cleanup();
    }
  });

  it('the default sandbox address needs no flags at all', async () => {
    // 8787 may be in use on a developer's machine: only the wording is checked when it is free.
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(8787, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (!free) return;
    const r = await run(['account'], { PROXYCTL_BASE_URL: 'http://127.0.0.1:8787' });
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toContain('start one: proxyctl sandbox (or check the base URL)');
  });

  it('a refusal by the HTTPS proxy, not the API, says nothing of a sandbox', async () => {
    const port = await closedPort();
    // The API's name is never resolved: the request goes to the (refusing) proxy on loopback.
    const r = await run(['account'], { PROXYCTL_BASE_URL: 'https://api.example.test', HTTPS_PROXY: `http://127.0.0.1:${port}` });
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toMatch(/proxy/);
    expect(String(r.stderr)).not.toMatch(/sandbox/);
  });
});
