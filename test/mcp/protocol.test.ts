// `proxyctl mcp` driven over raw stdio by a client that sends what it likes: every message gets
// the answer JSON-RPC gives it (-32700 for what is not JSON, -32600 for what is not a request,
// -32602 for params that do not fit), a request before initialize and a second initialize are
// refused, a message over the 10 MiB bound is refused with its own id while the calls around it
// are answered, and the server keeps serving with nothing but JSON-RPC on stdout and its memory
// under 250 MB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, seedFleet, startKit } from '../helpers/index.js';
import { INIT, rawMcp, toolError, type RawMcp, type RpcMessage } from './raw-client.js';

let kit: Kit;
let refs: string[];
beforeAll(async () => {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  refs = seedFleet(kit, [{ hoursLeft: 10 }, { hoursLeft: 20 }]);
});
afterAll(() => kit.close());

const MB = 1024 * 1024;

/** Sends `line` and returns the one message the server writes for it. */
async function answerTo(s: RawMcp, line: unknown): Promise<RpcMessage> {
  const before = s.messages.length;
  await s.send(line);
  return s.after(before);
}

/** Ends the server and checks what every test here must hold: exit 0, stdout only JSON-RPC, memory bounded. */
async function endCleanly(s: RawMcp): Promise<void> {
  const peak = s.peakRssMb();
  const r = await s.end();
  expect(r.exitCode, s.stderr()).toBe(0);
  expect(s.strays).toEqual([]);
  expect(peak).toBeLessThan(250);
}

describe('what is not a request gets the error JSON-RPC says, and the server keeps serving', () => {
  it('-32700 for a line that is not JSON or is cut short; -32600 for an array, jsonrpc 1.0, no method, id null', async () => {
    const s = rawMcp(kit);
    try {
      for (const [line, code, id] of [
        ['this is not json', -32700, null],
        ['{"jsonrpc":"2.0","id":1,"method":"tools/li', -32700, null],
        ['[{"jsonrpc":"2.0","id":2,"method":"ping"}]', -32600, null],
        ['[]', -32600, null],
        ['42', -32600, null],
        [{ jsonrpc: '1.0', id: 3, method: 'ping' }, -32600, 3],
        [{ jsonrpc: '2.0', id: 4 }, -32600, 4],
        [{ jsonrpc: '2.0', id: null, method: 'ping' }, -32600, null],
        [{ jsonrpc: '2.0', id: 5, method: 'ping', params: 'x' }, -32600, 5],
      ] as const) {
        const a = await answerTo(s, line);
        expect(a, JSON.stringify(line)).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
        expect(a.error!.message.length).toBeGreaterThan(0);
      }
      // Still serving: initialize and a call.
      expect((await s.initialize(10)).result).toMatchObject({ serverInfo: { name: 'proxyctl' } });
      expect((await s.call(11, 'get_account')).result?.structuredContent).toMatchObject({ balanceUsd: 1000 });
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  });

  it('tools/call with arguments that are not an object is -32602 in words, not an internal error', async () => {
    const s = rawMcp(kit);
    try {
      await s.initialize();
      for (const [id, args] of [
        [1, '{"ref":"PRX-1"}'],
        [2, ['PRX-1']],
        [3, 7],
      ] as const) {
        await s.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_unit', arguments: args } });
        const a = await s.answer(id);
        expect(a.error, JSON.stringify(args)).toMatchObject({ code: -32602 });
        expect(a.error!.message).toContain('params.arguments: Invalid input: expected object');
        expect(a.error!.message).not.toMatch(/[[{]/);
      }
      await s.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } });
      expect((await s.answer(4)).error).toMatchObject({ code: -32602, message: expect.stringContaining('params.name') });
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  });
});

describe('the session: initialize first, and once', () => {
  it('tools/list and tools/call before initialize are refused (ping is not); a second initialize is refused and changes nothing', async () => {
    const s = rawMcp(kit);
    const logged = kit.sb.requestLog().length;
    try {
      await s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect((await s.answer(1)).error).toMatchObject({ code: -32600, message: expect.stringContaining('initialize first') });
      await s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_account', arguments: {} } });
      expect((await s.answer(2)).error).toMatchObject({ code: -32600 });
      await s.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      expect((await s.answer(3)).result).toEqual({});
      // Nothing was asked of the API by the refused call.
      expect(kit.sb.requestLog().slice(logged)).toEqual([]);

      const first = await s.initialize(4);
      expect(first.result).toMatchObject({ protocolVersion: '2025-06-18' });
      await s.send({ jsonrpc: '2.0', id: 5, method: 'initialize', params: { ...INIT, protocolVersion: '2024-11-05' } });
      expect((await s.answer(5)).error).toMatchObject({ code: -32600, message: expect.stringContaining('already initialized') });
      const listed = await (async () => {
        await s.send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
        return s.answer(6);
      })();
      expect((listed.result as { tools: unknown[] }).tools).toHaveLength(13);
      // The protocol stayed the first one: its tools still carry outputSchema (2025-06-18).
      expect((listed.result as { tools: { outputSchema?: unknown }[] }).tools.every((t) => t.outputSchema)).toBe(true);
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  });

  it('an initialize whose params do not fit is -32602 and the session is still not initialized', async () => {
    const s = rawMcp(kit);
    try {
      await s.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 5 } });
      expect((await s.answer(1)).error).toMatchObject({ code: -32602 });
      await s.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect((await s.answer(2)).error).toMatchObject({ code: -32600 });
      expect((await s.initialize(3)).result).toMatchObject({ protocolVersion: '2025-06-18' });
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  });
});

describe('a message over 10 MiB', () => {
  it('is refused with its own id (written last, as the SDK writes it); the call before and after it are answered; memory stays bounded', async () => {
    const s = rawMcp(kit);
    try {
      await s.initialize();
      // A call in flight while the big message streams in.
      await s.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_status', arguments: {} } });
      const head = '{"method":"tools/call","params":{"name":"get_unit","arguments":{"ref":"';
      await s.write(head);
      const chunk = Buffer.alloc(MB, 'A');
      for (let i = 0; i < 11; i++) await s.write(chunk);
      await s.write('"}},"jsonrpc":"2.0","id":"big"}\n');
      await s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_account', arguments: {} } });
      const big = await s.answer('big');
      expect(big.error).toMatchObject({ code: -32600, message: expect.stringContaining('10 MiB') });
      expect((await s.answer(1)).result?.structuredContent).toMatchObject({ balanceUsd: 1000 });
      expect((await s.answer(3)).result?.structuredContent).toMatchObject({ balanceUsd: 1000 });
      // Again, without an id at all: answered with id null.
      const before = s.messages.length;
      await s.write(`{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"${'B'.repeat(11 * MB)}"}}\n`);
      await s.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
      expect(await s.after(before)).toMatchObject({ id: null, error: { code: -32600 } });
      expect((await s.answer(4)).result).toEqual({});
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  }, 120_000);
});

describe('refs are read as the CLI reads them', () => {
  it('prx-N is PRX-N; a 5 MB ref is a bad argument (exit 2) and reaches no API', async () => {
    const s = rawMcp(kit);
    try {
      await s.initialize();
      const lower = refs[0]!.toLowerCase();
      expect((await s.call(1, 'get_unit', { ref: lower })).result?.structuredContent).toMatchObject({ proxyRef: refs[0] });
      expect((await s.call(2, 'get_usage', { ref: ` ${lower} ` })).result?.structuredContent).toMatchObject({ proxyRef: refs[0] });
      const before = kit.sb.requestLog().length;
      const huge = 'PRX-'.padEnd(5 * MB, '9');
      for (const [id, name, args] of [
        [3, 'get_unit', { ref: huge }],
        [4, 'check_units', { refs: [huge] }],
        [5, 'get_unit', { ref: `PRX-1${'9'.repeat(70)}` }],
      ] as const) {
        const e = toolError(await s.call(id, name, args));
        expect(e, name).toMatchObject({ code: 'usage_error', exitCode: 2 });
        expect(e.message.length).toBeLessThan(300);
      }
      expect(kit.sb.requestLog().slice(before)).toEqual([]);
      // The CLI reads them the same way.
      const cli = await kit.run(['units', 'get', lower, '--json']);
      expect(cli.exitCode, String(cli.stderr)).toBe(0);
      expect(JSON.parse(String(cli.stdout))).toMatchObject({ proxyRef: refs[0] });
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  }, 60_000);
});

describe('unknown arguments are refused', () => {
  it('get_prices {bogus: 1} is exit 2 naming it; every listed input schema says additionalProperties: false', async () => {
    const s = rawMcp(kit, ['--allow-write', '--allow-spend']);
    try {
      await s.initialize();
      const e = toolError(await s.call(1, 'get_prices', { bogus: 1 }));
      expect(e).toMatchObject({ code: 'usage_error', exitCode: 2 });
      expect(e.message).toBe('invalid arguments for get_prices: unknown argument "bogus"');
      const typo = toolError(await s.call(2, 'list_units', { limt: 5 }));
      expect(typo.message).toContain('unknown argument "limt"');
      expect(typo.hint).toContain('limit');
      await s.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      const tools = ((await s.answer(3)).result as { tools: { name: string; inputSchema: { additionalProperties?: unknown } }[] }).tools;
      expect(tools).toHaveLength(21);
      for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      await endCleanly(s);
    } finally {
      s.child.kill();
    }
  });
});
