// `proxyctl mcp` as a client nobody here wrote meets it: the MCP inspector's command-line mode,
// from the npm registry at a pinned version, on Node 24 (scripts/lib/inspector.mjs), starts the
// built binary over stdio against the sandbox, lists its tools and calls read tools. The first run
// installs the inspector and Node 24 under node_modules/.cache/, hence the long hook timeout.
import { execa } from 'execa';
import { READ_TOOLS as READ, PAYS_TOOLS as PAYS } from './mcp-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspector } from '../../scripts/lib/inspector.mjs';
import { BIN, cleanEnv, NODE, seedFleet, startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
let cli: Awaited<ReturnType<typeof inspector>>;
let ref: string;
beforeAll(async () => {
  [kit, cli] = await Promise.all([startKit({ balance: 1234.5 }), inspector()]);
  [ref] = seedFleet(kit, [{ hoursLeft: 10, description: 'customer=acme' }]) as [string];
}, 600_000);
afterAll(() => kit?.close());

interface Inspected {
  code: number;
  stderr: string;
  /** The inspector's one JSON object on stdout (--format json): { result } or { error }. */
  json: { result?: Record<string, unknown>; error?: unknown };
}

/**
 * `inspector --cli --format json <inspectorArgs> -- node bin/proxyctl.js mcp <serverArgs>`, the
 * server's environment given only through the inspector's -e (the sandbox's URL and key, the
 * config dir and home in the kit's temp home), the inspector itself in that home too.
 */
async function inspect(inspectorArgs: string[], serverArgs: string[] = []): Promise<Inspected> {
  const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
  const r = await execa(
    cli.node,
    [
      cli.entry,
      '--cli',
      '--format',
      'json',
      ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      ...inspectorArgs,
      // The server's command line after `--`: --tool-arg takes every word up to the next option,
      // and the server's own flags are not the inspector's.
      '--',
      NODE,
      BIN,
      'mcp',
      ...serverArgs,
    ],
    { reject: false, stdin: 'ignore', cwd: kit.home.dir, env: cleanEnv(kit.home.env), extendEnv: true, timeout: 60_000 },
  );
  const stdout = String(r.stdout);
  let json: Inspected['json'];
  try {
    json = JSON.parse(stdout) as Inspected['json'];
  } catch {
    throw new Error(`the inspector's stdout is not one JSON object (exit ${r.exitCode}):\n${stdout}\n${String(r.stderr)}`);
  }
  return { code: r.exitCode ?? -1, stderr: String(r.stderr), json };
}

const toolNames = (r: Inspected) => ((r.json.result?.tools ?? []) as { name: string }[]).map((t) => t.name);

describe(`the MCP inspector's CLI (@modelcontextprotocol/inspector, pinned) against proxyctl mcp`, () => {
  it('tools/list: the read tools, and the paying ones only with --allow-spend; no schema portability error (--strict)', async () => {
    const read = await inspect(['--method', 'tools/list', '--strict']);
    expect(read.code, read.stderr).toBe(0);
    expect(toolNames(read)).toEqual(READ);
    // The server's banner goes to stderr, which the inspector passes through; stdout was the protocol.
    expect(read.stderr).toContain('proxyctl mcp: 13 tools (read) on stdio');

    const spend = await inspect(['--method', 'tools/list'], ['--allow-spend']);
    expect(spend.code, spend.stderr).toBe(0);
    expect(toolNames(spend)).toEqual([...READ, ...PAYS]);
  });

  it("tools/call get_account: the sandbox's balance, as structured content and as its text", async () => {
    const r = await inspect(['--method', 'tools/call', '--tool-name', 'get_account']);
    expect(r.code, r.stderr).toBe(0);
    const result = r.json.result as {
      structuredContent: { balanceUsd: number };
      content: { type: string; text: string }[];
      isError?: boolean;
    };
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent.balanceUsd).toBe((await kit.state()).balanceUsd);
    expect(result.structuredContent.balanceUsd).toBe(1234.5);
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  });

  it('tools/call get_unit with --tool-arg: that unit, its password masked', async () => {
    const r = await inspect(['--method', 'tools/call', '--tool-name', 'get_unit', '--tool-arg', `ref=${ref}`]);
    expect(r.code, r.stderr).toBe(0);
    const unit = (r.json.result as { structuredContent: Record<string, unknown> }).structuredContent;
    expect(unit).toMatchObject({ proxyRef: ref, description: 'customer=acme' });
    expect(unit.credentials).toEqual({ username: `user${ref.slice(4)}`, password: '********' });
  });

  it("an unknown unit: an isError result carrying the CLI's error, which the inspector reports as a tool error (exit 5)", async () => {
    const r = await inspect(['--method', 'tools/call', '--tool-name', 'get_unit', '--tool-arg', 'ref=PRX-999999']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('"code":"tool_is_error"');
    const result = r.json.result as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text).error).toMatchObject({ code: 'unit_not_found', exitCode: 5 });
  });
});
