// ctx.prompt, the one way a command asks: on the command's own streams (which it must not end),
// Ctrl-C → exit 130 with what was not done, "no" → exit 2.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO, fakeTerminal, json, startScriptedServer, type FakeIO, type ScriptedServer, waitForText } from '../helpers/index.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((_req, res) => json(res, 500, { error: { code: 'should_not_be_called', message: 'no' } }));
});
afterAll(() => server.close());

// A terminal whose stderr is an ordinary stream: unlike process.stderr, it can be ended, so a
// prompt that ends it loses every line written after the answer.
const terminal = (): FakeIO => fakeIO({ tty: true, env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'k', NO_COLOR: '1' } });

it('a "no" at the release prompt exits 2 and the reason still reaches stderr after the prompt', async () => {
  const io = terminal();
  const run = main(['units', 'release', 'PRX-7'], io);
  const t = fakeTerminal(io, run);
  await waitForText(t, 'Release PRX-7?');
  t.key('n\r');
  expect(await run).toBe(2);
  expect(io.err()).toMatch(/Release PRX-7\?[\s\S]*nothing released: the release was not confirmed/);
  expect(io.stderr.writableEnded).toBe(false);
  expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
});

it('Ctrl-C at the release prompt exits 130 and says nothing was released', async () => {
  const io = terminal();
  const run = main(['units', 'release', 'PRX-7'], io);
  const t = fakeTerminal(io, run);
  await waitForText(t, 'Release PRX-7?');
  t.key('\x03');
  expect(await run).toBe(130);
  expect(io.err()).toContain('cancelled; nothing was released');
  expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
});
