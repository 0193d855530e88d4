// `proxyctl mcp` as an agent host starts it: the tools each scope lists, with their schemas and
// truthful annotations; stdout carrying nothing but the protocol; stdin closing and Ctrl-C ending
// it with 0; a missing key refused before it serves; the SDK loaded only by this command.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadedBy, outputUntil, startKit, tempHome, type Kit } from '../helpers/index.js';
import { startMcp, READ_TOOLS as READ, WRITE_TOOLS as WRITE, PAYS_TOOLS as PAYS } from './mcp-client.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
});
afterAll(() => kit.close());

const env = () => ({ PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey });

describe('the tools each scope lists', () => {
  for (const [args, expected] of [
    [[], READ],
    [['--allow-write'], [...READ, ...WRITE]],
    [['--allow-spend'], [...READ, ...PAYS]],
    [
      ['--allow-write', '--allow-spend'],
      [...READ, ...WRITE, ...PAYS],
    ],
    [['--allow-write', '--allow-spend', '--read-only'], READ],
  ] as const) {
    it(`proxyctl mcp ${args.join(' ')}`.trim(), async () => {
      const s = await startMcp(kit, [...args]);
      try {
        const { tools } = await s.client.listTools();
        expect(tools.map((t) => t.name)).toEqual(expected);
        for (const t of tools) {
          expect(t.inputSchema.type, t.name).toBe('object');
          expect(t.outputSchema?.type, t.name).toBe('object');
          expect(Object.keys(t.annotations ?? {}).sort(), t.name).toEqual([
            'destructiveHint',
            'idempotentHint',
            'openWorldHint',
            'readOnlyHint',
            'title',
          ]);
        }
        // What the annotations say: the read tools and the quotes change nothing; modify, swap and
        // release are not merely additive; only the ledger's spend stays on this machine.
        const hinted = (hint: 'readOnlyHint' | 'destructiveHint' | 'openWorldHint') =>
          tools.filter((t) => t.annotations?.[hint] === true).map((t) => t.name);
        expect(hinted('readOnlyHint')).toEqual(expected.filter((n) => READ.includes(n) || n.startsWith('quote_')));
        expect(hinted('destructiveHint')).toEqual(expected.filter((n) => WRITE.includes(n)));
        expect(expected.filter((n) => !hinted('openWorldHint').includes(n))).toEqual(['get_spend']);
      } finally {
        await s.close();
      }
    });
  }

  it('a tool the scopes leave out is not run: an isError result naming the flag, and nothing changes', async () => {
    const s = await startMcp(kit);
    try {
      const r = await s.call('quote_create', { pool: 'US-1', period: '24h' });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error).toMatchObject({ code: 'tool_not_available', exitCode: 2 });
      expect(r.error.hint).toContain('--allow-spend');
      const release = await s.call('release_units', { refs: ['PRX-1'], confirm: 1 });
      expect(release.ok).toBe(false);
    } finally {
      await s.close();
    }
    expect((await kit.state()).balanceUsd).toBe(1000);
  });
});

describe('the process', () => {
  it('stdout carries only the protocol; stdin closing right after the last request still answers it, then exit 0', async () => {
    const child = kit.run(['mcp'], { stdin: 'pipe' });
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_account', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    ];
    child.stdin!.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const lines = String(r.stdout).split('\n').filter(Boolean);
    const answers = lines.map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: Record<string, unknown> });
    expect(answers.every((a) => a.jsonrpc === '2.0')).toBe(true);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    const account = answers.find((a) => a.id === 2)!.result as { structuredContent: { balanceUsd: number } };
    expect(account.structuredContent.balanceUsd).toBe(1000);
    expect(String(r.stderr)).toContain('proxyctl mcp: 13 tools (read) on stdio');
  });

  it('Ctrl-C ends it with 0', async () => {
    const child = kit.run(['mcp'], { stdin: 'pipe' });
    await outputUntil(child, 'stderr', (t) => t.includes('on stdio'));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toBe('');
  });

  it('without an API key it exits 3 before serving, saying what to do', async () => {
    const home = tempHome();
    try {
      const r = await loadedBy(['mcp'], home, { PROXYCTL_BASE_URL: kit.sb.baseUrl });
      expect(r.exitCode).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('proxyctl login');
      expect(r.packages.has('@modelcontextprotocol/sdk')).toBe(false);
    } finally {
      home.cleanup();
    }
  });
});

describe('what loads the MCP SDK', () => {
  it('proxyctl mcp does; mcp --help and units list do not', async () => {
    const served = await loadedBy(['mcp'], kit.home, env());
    expect(served.exitCode, served.stderr).toBe(0);
    expect(['@modelcontextprotocol/sdk', 'zod'].filter((p) => served.packages.has(p))).toEqual(['@modelcontextprotocol/sdk', 'zod']);
    for (const args of [
      ['mcp', '--help'],
      ['units', 'list', '--json'],
    ]) {
      const l = await loadedBy(args, kit.home, env());
      expect(l.exitCode, args.join(' ')).toBe(0);
      expect(
        [...l.packages].filter((p) => p.startsWith('@modelcontextprotocol/') || p === 'zod'),
        args.join(' '),
      ).toEqual([]);
      expect(
        [...l.sources].filter((s) => s.startsWith('src/mcp/')),
        args.join(' '),
      ).toEqual([]);
    }
  });
});
