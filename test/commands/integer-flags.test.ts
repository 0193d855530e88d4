// Whole-number flags are read by one parser (src/kit/options.ts): decimal digits only, the
// same message everywhere, and refused before any request is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyctl, startScriptedServer, tempHome, type ScriptedServer } from '../helpers/index.js';

const home = tempHome();
let server: ScriptedServer;

beforeAll(async () => {
  // Answers nothing useful: any request reaching it is a failure of the test.
  server = await startScriptedServer((_req, res) => {
    res.statusCode = 500;
    res.end('{}');
  });
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

const env = () => ({ PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'pk_live_INTEGER_FLAGS_TEST' });

describe('whole-number flags', () => {
  it.each([
    [['webhook', 'log', '--page', '0x10'], '--page must be a whole number from 1 to 1000000, got "0x10"'],
    [['webhook', 'log', '--page-size', '1e1'], '--page-size must be a whole number from 1 to 100, got "1e1"'],
    [['webhook', 'log', '--page-size', '0'], '--page-size must be a whole number from 1 to 100, got "0"'],
    [['units', 'list', '--page-size', '0'], '--page-size must be a whole number from 1 to 200, got "0"'],
    [['units', 'list', '--page', '1.0'], '--page must be a whole number from 1 up, got "1.0"'],
    [['units', 'create', '--pool', 'US-1', '--period', '7d', '--count', '0x2'], '--count must be a whole number from 1 to 500, got "0x2"'],
    [['me', 'uptime', '--day', '31'], '--day must be a whole number from 1 to 30, got "31"'],
  ])('%j exits 2 with one message, no request sent', async (args, message) => {
    const sent = server.requests.length;
    const r = await proxyctl(args, { home, env: env() });
    expect(r.stderr).toBe(`error: ${message} (code usage_error)`);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(server.requests.slice(sent)).toEqual([]);
  });
});
