// `proxyctl mcp`: a Model Context Protocol server on stdin/stdout, through the official SDK's
// low-level Server. Its McpServer helper validates arguments itself and answers a bad one with
// its own text; here every failure, a bad argument included, is the CLI's error object with its
// code and exit code, so an agent can branch on the same codes a script does.
//
// stdout carries only the protocol; notices and warnings go to stderr. The server ends cleanly
// (exit 0) when stdin closes or on Ctrl-C/SIGTERM, once the calls in flight have settled: a
// purchase on the wire finishes (its batch starts no new item) rather than being cut short.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { createContext, type Context } from '../context/index.js';
import { UsageError } from '../errors.js';
import { escapeControl } from '../output/escape.js';
import { VERSION } from '../version.js';
import { errorResult, toolResult } from './results.js';
import { Session, type ServerOptions } from './session.js';
import type { AnyTool, Scope } from './tool.js';
import { paysTools } from './tools/pays.js';
import { readTools } from './tools/read.js';
import { writeTools } from './tools/write.js';

export type { ServerOptions } from './session.js';

/** The tools a server with these scopes lists (and the only ones it runs). */
export function toolsFor(scopes: ReadonlySet<Scope>): AnyTool[] {
  return [...readTools, ...(scopes.has('write') ? writeTools : []), ...(scopes.has('pays') ? paysTools : [])];
}

const INSTRUCTIONS = `proxyctl manages proxy units on a Reseller Proxy API account.
Paying takes two calls: quote_create or quote_extend charges nothing and returns a quoteId with the exact total, the balance after and the budget's verdict; create_units or extend_units with that quoteId pays exactly that quote, once (the same quoteId again returns the same outcome and never charges twice).
A failed call is an isError result whose text is {"error":{"code","message","hint","exitCode"}}.`;

/** A tool's schemas as the protocol lists them: JSON Schema (draft 7, as the SDK's own server gives). */
function listed(tool: AnyTool) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }),
    outputSchema: z.toJSONSchema(tool.output, { target: 'draft-7', io: 'output' }),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

function invalidArguments(tool: AnyTool, error: z.ZodError): UsageError {
  const takes = Object.keys(tool.input.shape);
  const problems = error.issues.map((i) =>
    i.code === 'unrecognized_keys'
      ? `unknown argument${i.keys.length === 1 ? '' : 's'} ${i.keys.map((k) => JSON.stringify(k)).join(', ')}`
      : `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`,
  );
  return new UsageError(`invalid arguments for ${tool.name}: ${problems.join('; ')}`, {
    hint: takes.length ? `${tool.name} takes: ${takes.join(', ')} (see its input schema)` : `${tool.name} takes no arguments`,
  });
}

/** Serves until stdin closes or the process is told to stop; returns the exit code (0). */
export async function serve(given: Context, options: ServerOptions): Promise<number> {
  // Never a prompt or a spinner: stdin is the protocol, and stderr is a log.
  const ctx = createContext(
    { ...given.io, stdinIsTTY: false, stderrIsTTY: false },
    { ...given.globals, noInput: true },
    given.signal,
    given.now,
  );
  // A missing key or profile is said now (exit 3), not on the agent's first call.
  await ctx.api();
  const [{ Server }, { GuardedStdioTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('./stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const { CallToolRequestSchema, ListToolsRequestSchema } = types;
  const session = new Session(ctx, options);
  const tools = toolsFor(options.scopes);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const list = tools.map(listed);
  const reveal = options.revealCredentials;
  // Aborted when the server stops: calls in flight start no new item.
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();

  const server = new Server({ name: 'proxyctl', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.onerror = (err) => ctx.warn(`mcp: ${err.message}`);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: list }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const name = req.params.name;
    const tool = byName.get(name);
    if (!tool) {
      const scopes = [...options.scopes].join(', ');
      return errorResult(
        new UsageError(`this server has no tool ${name} (its scopes: ${scopes})`, {
          code: 'tool_not_available',
          hint: 'write tools need proxyctl mcp --allow-write, paying ones --allow-spend (and no --read-only)',
        }),
        reveal,
      );
    }
    const args = tool.input.safeParse(req.params.arguments ?? {});
    if (!args.success) return errorResult(invalidArguments(tool, args.error), reveal);
    const signal = AbortSignal.any([stopping.signal, extra.signal]);
    const call = tool.run(args.data, { ctx, signal, session });
    inFlight.add(call);
    try {
      return toolResult(await call, reveal);
    } catch (err) {
      ctx.notice(`mcp: ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (ctx.globals.debug && err instanceof Error && err.stack) ctx.io.stderr.write(`[debug] ${escapeControl(err.stack)}\n`);
      return errorResult(err, reveal);
    } finally {
      inFlight.delete(call);
    }
  });

  const ended = new Promise<void>((resolve) => {
    ctx.io.stdin.once('end', () => resolve());
    ctx.io.stdin.once('close', () => resolve());
    server.onclose = () => resolve();
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  // The protocol's own checks happen before the SDK sees a message: every line gets an answer.
  const transport = new GuardedStdioTransport(ctx.io.stdin, ctx.io.stdout, {
    schemas: {
      JSONRPCMessageSchema: types.JSONRPCMessageSchema,
      params: {
        initialize: types.InitializeRequestSchema,
        ping: types.PingRequestSchema,
        'tools/list': ListToolsRequestSchema,
        'tools/call': CallToolRequestSchema,
      },
    },
    log: (line) => ctx.notice(line),
  });
  const requests = unanswered(transport);
  await server.connect(transport);
  const scopes = [...options.scopes].join(', ');
  ctx.notice(`proxyctl mcp: ${tools.length} tools (${scopes}) on stdio; stdin closing or Ctrl-C stops it`);
  await ended;
  stopping.abort();
  await Promise.allSettled([...inFlight]);
  await requests.answered();
  await server.close().catch(() => undefined);
  return 0;
}

/**
 * Tracks the requests received and not yet answered, so that a server told to stop (stdin closed
 * right after the last request, Ctrl-C) answers every one first. A request the client cancelled is
 * answered by nothing (the protocol's rule), so it is not waited for.
 */
function unanswered(transport: Transport) {
  const open = new Set<unknown>();
  let idle: (() => void) | undefined;
  const settle = (id: unknown) => {
    open.delete(id);
    if (open.size === 0) idle?.();
  };
  // Set before connecting: the SDK calls a handler already there before its own.
  transport.onmessage = (m) => {
    if (!('method' in m)) return;
    if ('id' in m) open.add(m.id);
    else if (m.method === 'notifications/cancelled') settle(m.params?.requestId);
  };
  const send = transport.send.bind(transport);
  transport.send = async (m, options) => {
    await send(m, options);
    if (!('method' in m) && 'id' in m) settle(m.id);
  };
  return { answered: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve))) };
}
