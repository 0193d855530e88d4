// The server as an agent's client meets it: `proxyctl mcp` (the built binary) started by the MCP
// SDK's own Client over its StdioClientTransport, pointed at a kit's sandbox in the kit's temp home.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, cleanEnv, NODE, type Kit } from '../helpers/index.js';

/** The tools each scope lists, in the order the server lists them. */
export const READ_TOOLS = [
  'get_account',
  'get_status',
  'get_uptime',
  'list_pools',
  'get_prices',
  'list_units',
  'get_unit',
  'get_usage',
  'check_units',
  'get_spend',
  'list_customers',
  'get_statement',
  'list_deliveries',
];
export const WRITE_TOOLS = ['modify_units', 'swap_unit', 'change_protocol', 'release_units'];
export const PAYS_TOOLS = ['quote_create', 'create_units', 'quote_extend', 'extend_units'];

export interface McpSession {
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Calls a tool: its structured result, or the error object of an isError result. */
  call(name: string, args?: Record<string, unknown>): Promise<Called>;
  close(): Promise<void>;
}

export type Called =
  | { ok: true; value: Record<string, unknown>; text: string }
  | { ok: false; error: { code: string; message: string; exitCode: number; hint?: string }; text: string };

/** `proxyctl mcp ...args` against the kit's sandbox, connected. */
export async function startMcp(kit: Kit, args: string[] = [], env: Record<string, string> = {}): Promise<McpSession> {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    ...process.env,
    ...cleanEnv({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, ...env }),
  }))
    if (v !== undefined) merged[k] = v;
  const transport = new StdioClientTransport({ command: NODE, args: [BIN, 'mcp', ...args], env: merged, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const client = new Client({ name: 'proxyctl-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => err,
    async call(name, a = {}) {
      const r = (await client.callTool({ name, arguments: a })) as {
        content: { type: string; text: string }[];
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
      const text = r.content.map((c) => c.text).join('');
      if (r.isError) return { ok: false, error: (JSON.parse(text) as { error: Extract<Called, { ok: false }>['error'] }).error, text };
      return { ok: true, value: r.structuredContent ?? {}, text };
    },
    close: () => client.close(),
  };
}

/** The value of a call that must succeed (its error in the assertion message otherwise). */
export function ok(c: Called): Record<string, unknown> {
  if (!c.ok) throw new Error(`expected a result, got ${c.text}`);
  return c.value;
}
