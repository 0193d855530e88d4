// `proxyctl mcp install` in a temporary HOME: each client's user file gets a proxyctl entry that
// names the profile (never the key), its other servers and settings are kept, --dry-run writes
// nothing, a file it cannot read is refused untouched, and the entry written starts a server an
// MCP client can use with nothing but that profile: proxyctl's config dir (PROXYCTL_CONFIG_DIR, as
// these tests set it) goes in the entry's env, since the client starts it with its own environment.
// A VS Code mcp.json with comments and trailing commas (which VS Code accepts) is edited in place,
// its comments kept.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, loginWithStdin, NODE, proxyctl, startKit, tempHome, type Kit, type TempHome } from '../helpers/index.js';

let kit: Kit;
let home: TempHome;
beforeAll(async () => {
  kit = await startKit();
  home = tempHome();
  const login = await loginWithStdin(home, kit.sb.baseUrl, 'sandbox', kit.sb.apiKey);
  expect(login.exitCode, String(login.stderr)).toBe(0);
});
afterAll(async () => {
  home.cleanup();
  await kit.close();
});

const install = (args: string[]) => proxyctl(['--profile', 'sandbox', 'mcp', 'install', ...args], { home });
const file = (...parts: string[]) => join(home.dir, ...parts);
const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>;

describe('proxyctl mcp install', () => {
  it('claude-code: adds a stdio entry naming the profile beside the servers and settings already there; the key is not written', async () => {
    const path = file('.claude.json');
    put(
      path,
      JSON.stringify({
        numStartups: 7,
        projects: { '/w': { mcpServers: { p: { command: 'p' } } } },
        mcpServers: { other: { command: 'x' } },
      }),
    );
    const r = await install(['--client', 'claude-code', '--json', '--', '--allow-spend', '--budget', '50']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({
      client: 'claude-code',
      file: path,
      server: 'proxyctl',
      command: 'proxyctl',
      args: ['--profile', 'sandbox', 'mcp', '--allow-spend', '--budget', '50'],
      env: { PROXYCTL_CONFIG_DIR: home.configDir },
      replaces: false,
      keeps: ['other'],
      dryRun: false,
    });
    const written = json(path);
    expect(written).toEqual({
      numStartups: 7,
      projects: { '/w': { mcpServers: { p: { command: 'p' } } } },
      mcpServers: {
        other: { command: 'x' },
        proxyctl: {
          type: 'stdio',
          command: 'proxyctl',
          args: ['--profile', 'sandbox', 'mcp', '--allow-spend', '--budget', '50'],
          env: { PROXYCTL_CONFIG_DIR: home.configDir },
        },
      },
    });
    expect(readFileSync(path, 'utf8')).not.toContain(kit.sb.apiKey);

    // Again with other flags: the one entry is replaced.
    const again = await install(['--client', 'claude-code', '--json']);
    expect(JSON.parse(String(again.stdout))).toMatchObject({ replaces: true, keeps: ['other'] });
    expect(json(path).mcpServers).toEqual({
      other: { command: 'x' },
      proxyctl: { type: 'stdio', command: 'proxyctl', args: ['--profile', 'sandbox', 'mcp'], env: { PROXYCTL_CONFIG_DIR: home.configDir } },
    });
  });

  it('--dry-run shows the change and writes nothing', async () => {
    const path = file('.cursor', 'mcp.json');
    const r = await install(['--client', 'cursor', '--dry-run']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('proxyctl --profile sandbox mcp');
    expect(String(r.stderr)).toContain('dry run: nothing was written');
    expect(() => readFileSync(path)).toThrow();
  });

  it('cursor, claude-desktop and vscode: each in its own file and key', async () => {
    const env = { PROXYCTL_CONFIG_DIR: home.configDir };
    for (const [client, path, entry] of [
      ['cursor', file('.cursor', 'mcp.json'), ['mcpServers', { command: 'proxyctl', args: ['--profile', 'sandbox', 'mcp'], env }]],
      [
        'claude-desktop',
        join(home.env.XDG_CONFIG_HOME!, 'Claude', 'claude_desktop_config.json'),
        ['mcpServers', { command: 'proxyctl', args: ['--profile', 'sandbox', 'mcp'], env }],
      ],
      [
        'vscode',
        join(home.env.XDG_CONFIG_HOME!, 'Code', 'User', 'mcp.json'),
        ['servers', { type: 'stdio', command: 'proxyctl', args: ['--profile', 'sandbox', 'mcp'], env }],
      ],
    ] as const) {
      const r = await install(['--client', client]);
      expect(r.exitCode, `${client}: ${String(r.stderr)}`).toBe(0);
      expect(json(path), client).toEqual({ [entry[0]]: { proxyctl: entry[1] } });
    }
  });

  it('codex: its config.toml keeps every other line and server; the proxyctl table and its subtables are replaced', async () => {
    const path = file('.codex', 'config.toml');
    put(
      path,
      [
        'model = "o3"',
        '',
        '[mcp_servers.other]',
        'command = "other"',
        '',
        '[mcp_servers.proxyctl]',
        'command = "old"',
        '',
        '[mcp_servers.proxyctl.env]',
        'PROXYCTL_API_KEY = "sk_should_go"',
        '',
        '[profiles.fast]',
        'model = "o4-mini"',
        '',
      ].join('\n'),
    );
    const r = await install(['--client', 'codex', '--json', '--', '--read-only']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ replaces: true, keeps: ['other'] });
    expect(readFileSync(path, 'utf8')).toBe(
      [
        'model = "o3"',
        '',
        '[mcp_servers.other]',
        'command = "other"',
        '',
        '[mcp_servers.proxyctl]',
        'command = "proxyctl"',
        'args = ["--profile", "sandbox", "mcp", "--read-only"]',
        `env = { "PROXYCTL_CONFIG_DIR" = ${JSON.stringify(home.configDir)} }`,
        '',
        '[profiles.fast]',
        'model = "o4-mini"',
        '',
      ].join('\n'),
    );
  });

  it('refuses, writing nothing: a file that is not JSON (2), flags mcp does not take (2), a profile not stored (3)', async () => {
    const path = file('.cursor', 'mcp.json');
    put(path, '{ "mcpServers": { oops');
    let r = await install(['--client', 'cursor']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain(`${path} is not JSON`);
    expect(readFileSync(path, 'utf8')).toBe('{ "mcpServers": { oops');

    r = await install(['--client', 'claude-code', '--', '--allow-everything']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain("unknown option '--allow-everything'");
    r = await install(['--client', 'claude-code', '--', '--budget', 'lots']);
    expect(r.exitCode).toBe(2);
    // Commander's suggestion goes to the hint line, never as a literal "\n" in the error line.
    r = await install(['--client', 'claude-code', '--', '--budge', '5']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).not.toContain('\\n');
    expect(String(r.stderr)).toContain(
      "after --, give the flags of proxyctl mcp: unknown option '--budge' (code usage_error)\nDid you mean --budget? e.g.",
    );

    r = await proxyctl(['--profile', 'nobody', 'mcp', 'install', '--client', 'claude-code'], { home });
    expect(r.exitCode).toBe(3);
    expect(String(r.stderr)).toContain('no stored profile "nobody"');
    expect(json(file('.claude.json')).mcpServers?.proxyctl).toEqual({
      type: 'stdio',
      command: 'proxyctl',
      args: ['--profile', 'sandbox', 'mcp'],
      env: { PROXYCTL_CONFIG_DIR: home.configDir },
    });
  });

  it('the entry it writes starts a server an MCP client can use, with no key in its environment', async () => {
    const r = await install(['--client', 'claude-desktop', '--', '--allow-spend']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const entry = json(join(home.env.XDG_CONFIG_HOME!, 'Claude', 'claude_desktop_config.json')).mcpServers!.proxyctl as {
      command: string;
      args: string[];
      env: Record<string, string>;
    };
    // The client's own environment (no PROXYCTL_CONFIG_DIR of the shell that installed it), then the entry's env, as clients do.
    const env: Record<string, string> = {};
    const { PROXYCTL_CONFIG_DIR: _set, ...clientEnv } = home.env;
    for (const [k, v] of Object.entries({ ...process.env, ...cleanEnv({ ...clientEnv, PROXYCTL_CONFIG_DIR: undefined }), ...entry.env }))
      if (v !== undefined) env[k] = v;
    // `proxyctl` on a user's PATH is this binary.
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: NODE, args: [BIN, ...entry.args], env, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('quote_create');
      const account = await client.callTool({ name: 'get_account', arguments: {} });
      expect(account.structuredContent).toMatchObject({ balanceUsd: 1000 });
    } finally {
      await client.close();
    }
  });

  it('a VS Code mcp.json with comments and trailing commas is edited in place: comments kept, entry added', async () => {
    const path = join(home.env.XDG_CONFIG_HOME!, 'Code', 'User', 'mcp.json');
    const original = [
      '// MCP servers for VS Code',
      '{',
      '  "servers": {',
      '    // the GitHub one, keep it',
      '    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },',
      '  },',
      '  "inputs": [], // none yet',
      '}',
      '',
    ].join('\n');
    put(path, original);
    const r = await install(['--client', 'vscode', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ replaces: false, keeps: ['github'] });
    const text = readFileSync(path, 'utf8');
    for (const kept of ['// MCP servers for VS Code', '// the GitHub one, keep it', '"inputs": [], // none yet'])
      expect(text, text).toContain(kept);
    const { parse } = (await import('jsonc-parser')).default;
    expect(parse(text, [], { allowTrailingComma: true })).toEqual({
      servers: {
        github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
        proxyctl: {
          type: 'stdio',
          command: 'proxyctl',
          args: ['--profile', 'sandbox', 'mcp'],
          env: { PROXYCTL_CONFIG_DIR: home.configDir },
        },
      },
      inputs: [],
    });
    // Run again: the one entry is replaced, the comments still there.
    const again = await install(['--client', 'vscode', '--json', '--', '--read-only']);
    expect(JSON.parse(String(again.stdout))).toMatchObject({ replaces: true, keeps: ['github'] });
    expect(readFileSync(path, 'utf8')).toContain('// the GitHub one, keep it');
  });
});
