// The sandbox reports its own faults (an unexpected error behind a 500) through the logger its
// starter gives it, never by writing to the process's stderr itself: in-process with a function,
// and `proxyctl sandbox` passes its own stderr. The fault here: the state file's folder vanishes.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { spawnSandbox, tempHome } from '../helpers/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-logger-'));
const home = tempHome();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  home.cleanup();
});
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  vi.restoreAllMocks();
});

/** A purchase after the state folder was removed: the write fails, the sandbox answers 500. */
async function buyWithoutStateFolder(baseUrl: string, apiKey: string, folder: string): Promise<{ status: number; requestId: string }> {
  rmSync(folder, { recursive: true, force: true });
  const r = await fetch(`${baseUrl}/api/reseller/v1/units`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ poolId: 'US-11', period: '3h' }),
  });
  const body = (await r.json()) as { error: { code: string; requestId: string } };
  expect(body.error.code).toBe('internal_error');
  return { status: r.status, requestId: body.error.requestId };
}

it('in-process: the fault goes to the injected logger, nothing to process.stderr', async () => {
  const folder = join(dir, 'in-process');
  mkdirSync(folder);
  const lines: string[] = [];
  const direct = vi.spyOn(process.stderr, 'write');
  sb = await startSandbox({ port: 0, host: '127.0.0.1', stateFile: join(folder, 'state.json'), log: (l) => lines.push(l) });
  const { status, requestId } = await buyWithoutStateFolder(sb.baseUrl, sb.apiKey, folder);
  expect(status).toBe(500);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^sandbox: ${requestId}: Error: ENOENT`));
  expect(direct.mock.calls.filter(([chunk]) => String(chunk).includes(requestId))).toEqual([]);
});

it('without a logger the fault is dropped, and the sandbox keeps serving', async () => {
  const folder = join(dir, 'silent');
  mkdirSync(folder);
  const direct = vi.spyOn(process.stderr, 'write');
  sb = await startSandbox({ port: 0, host: '127.0.0.1', stateFile: join(folder, 'state.json') });
  const { status, requestId } = await buyWithoutStateFolder(sb.baseUrl, sb.apiKey, folder);
  expect(status).toBe(500);
  expect(direct.mock.calls.filter(([chunk]) => String(chunk).includes(requestId))).toEqual([]);
  const after = await fetch(`${sb.baseUrl}/api/reseller/v1/account`, { headers: { 'x-api-key': sb.apiKey } });
  expect(after.status).toBe(200);
});

it('proxyctl sandbox: the fault is on its stderr, with the request id', async () => {
  const folder = join(dir, 'process');
  mkdirSync(folder);
  const info = await spawnSandbox(home, ['--state', join(folder, 'state.json')]);
  let err = '';
  info.child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const { requestId } = await buyWithoutStateFolder(info.baseUrl, info.apiKey, folder);
  await info.stop();
  expect((await info.child).exitCode).toBe(0);
  expect(err).toMatch(new RegExp(`^sandbox: ${requestId}: Error: ENOENT`, 'm'));
});
