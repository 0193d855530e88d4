// A read the user interrupts, or the --timeout deadline cuts, whether the answer has not started or
// stopped half-way through its body: the transport's own handler (src/net/transport.ts) must end
// the request with exit 130 (Ctrl-C), or exit 9 with the deadline message (--timeout), as before.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { proxyctl, type ScriptedServer, startScriptedServer, tempHome } from '../helpers/index.js';

let server: ScriptedServer | undefined;
const home = tempHome();
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => home.cleanup());

/** Answers `/units` never, or with headers and half a body and then nothing. */
async function stallingServer(half: boolean): Promise<{ url: string; arrived: Promise<void> }> {
  let arrived!: () => void;
  const seen = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  server = await startScriptedServer((_req, res) => {
    if (half) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":[{"proxyRef":"PRX-1",');
    }
    arrived();
  });
  return { url: server.url, arrived: seen };
}

describe.each([
  ['before the answer starts', false],
  ['half-way through the body', true],
])('a read stalled %s', (_name, half) => {
  it('Ctrl-C ends it: exit 130, "interrupted", no output', async () => {
    const { url, arrived } = await stallingServer(half);
    const child = proxyctl(['units', 'list', '-o', 'conn'], { home, env: { PROXYCTL_BASE_URL: url, PROXYCTL_API_KEY: 'sk_test_abort' } });
    await arrived;
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toBe('');
    expect(String(r.stderr)).toMatch(/interrupted/);
  });

  it('--timeout cuts it with the deadline message (tried twice, as a timed-out read is)', async () => {
    const { url } = await stallingServer(half);
    const r = await proxyctl(['units', 'list', '-o', 'conn', '--timeout', '0.5'], {
      home,
      env: { PROXYCTL_BASE_URL: url, PROXYCTL_API_KEY: 'sk_test_abort' },
    });
    expect(r.exitCode).toBe(9);
    expect(String(r.stderr)).toMatch(
      /no complete answer from 127\.0\.0\.1:\d+ within [\d.]+s \(--timeout 0\.5s\); gave up after 2 attempts/,
    );
    expect(server!.requests).toHaveLength(2);
  });
});
