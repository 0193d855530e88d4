// What an MCP tool is here: a name, zod schemas for what it takes and what it answers, the
// protocol's annotations, the scope that decides whether it exists at all, and `run`, a thin
// adapter over the function the CLI verb calls (the same validation, the same domain path).
import type { z } from 'zod';
import type { Context } from '../context/index.js';
import type { Scope, Session } from './session.js';

export type { Scope } from './session.js';

/** The protocol's tool annotations, every one stated (a client assumes the worst of a missing one). */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool's run gets besides its arguments. */
export interface ToolCall {
  /** The server's context: the profile's API client and ledger, stderr for logs, never a prompt. */
  ctx: Context;
  /** Aborted when the client cancels this call or the server is stopping: no new item starts. */
  signal: AbortSignal;
  session: Session;
}

export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  input: I;
  output: O;
  annotations: Annotations;
  run(args: z.output<I>, call: ToolCall): Promise<z.input<O>>;
}

// A list of tools holds many argument and result types.
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous registry
export type AnyTool = Tool<any, any>;

/**
 * A tool as the server lists and runs it. Its arguments are strict: a key the schema does not name
 * is refused (and the listed schema says `additionalProperties: false`), so an agent that misspells
 * one learns it instead of having it dropped.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: Tool<I, O>): Tool<I, O> {
  return { ...tool, input: tool.input.strict() as unknown as I };
}

/** A tool that only reads the Reseller API. */
export const READS_API: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** A tool that only reads what proxyctl keeps on this machine (the ledger). */
export const READS_LOCAL: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
