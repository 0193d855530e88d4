// How a tool's outcome reaches the agent: a result with its structured content (and the same
// JSON as text, for clients that read only text), or a failure as the protocol wants it, a result
// with isError and the CLI's own error object: code, message, hint and the exit code the same
// failure has on the command line. Secrets are masked here, once, for every tool.
import { errorObject, exitCodeFor } from '../errors.js';

export const MASK = '********';

/** Field names whose string values are secrets: a unit's proxy password, a webhook secret. */
const SECRET = /^(password|secret|apikey)$/i;

/** A copy of `value` with every secret string masked. */
export function maskSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET.test(k) && typeof v === 'string' ? MASK : maskSecrets(v);
  return out as T;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toolResult(value: Record<string, unknown>, reveal: boolean): ToolResult {
  const shown = reveal ? value : maskSecrets(value);
  return { content: [{ type: 'text', text: JSON.stringify(shown) }], structuredContent: shown };
}

/** The CLI's `{"error":{…}}` for this failure, with its exit code, as an isError result. */
export function errorResult(err: unknown, reveal: boolean): ToolResult {
  const { error } = errorObject(err);
  const shown = { error: { ...error, exitCode: exitCodeFor(err) } };
  return { content: [{ type: 'text', text: JSON.stringify(reveal ? shown : maskSecrets(shown)) }], isError: true };
}
