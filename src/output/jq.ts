// `--jq EXPR`, as gh has it: jq's own language over the JSON a command prints, through jq-wasm
// (jq 1.8 compiled to WebAssembly, pinned to one exact version: no jq install, the same jq
// everywhere). The kit loads it only when the flag is given and checks the expression before the
// command runs, so before any request (`prepareJq`); the printers then filter what they would have
// printed as JSON (`jqText`). A string result prints raw, as gh and `jq -r` print it; any other
// value as JSON, indented on a terminal and on one line into a pipe or file.
import type { Jq } from 'jq-wasm';
import type { BaseContext } from '../globals.js';
import { UsageError } from '../errors.js';
import { escapeControl } from './escape.js';
import { paintWhen } from './format.js';

let jq: Jq | undefined;
let expression: string | undefined;
let failedOnData = false;

/**
 * Loads jq and compiles `expr` without running it: inside `empty | (…)` nothing is evaluated, so
 * an expression that never ends cannot hang here, while syntax errors and unknown functions and
 * variables are reported as jq reports them. A bad expression is exit 2.
 */
export async function prepareJq(expr: string): Promise<void> {
  const { loadJq } = await import('jq-wasm');
  jq ??= await loadJq();
  expression = expr;
  failedOnData = false;
  const check = jq.raw(null, `empty | (\n${expr}\n)`);
  if (check.exitCode !== 0) throw new UsageError(`--jq: ${compileMessage(check.stderr, expr)}`, { code: 'jq_error' });
}

/**
 * jq's "<what> at <top-level>, line L, column C:" for the user's expression: the check wraps it
 * from line 2, so lines are one less; a place past its end is the end of the expression.
 */
function compileMessage(stderr: string, expr: string): string {
  const first = stderr.split('\n').find((l) => l.startsWith('jq: error')) ?? stderr.trim();
  const m = /^jq: error: (.*?)(?: at <top-level>, line (\d+), column (\d+):?)?$/.exec(first);
  if (!m) return first.replace(/^jq: error:?\s*/, '');
  const [, what, line, column] = m;
  if (line === undefined) return `${what} in "${expr}"`;
  const lines = expr.split('\n').length;
  const at = Number(line) - 1;
  // Past the end: jq met the check's own closing bracket, which says nothing to the user.
  if (at < 1 || at > lines) return `syntax error at the end of "${expr}" (is it complete, are its brackets balanced?)`;
  return `${what} in "${expr}" (${lines > 1 ? `line ${at}, ` : ''}column ${column})`;
}

/** True once the expression failed on a command's output this run (the kit then exits 2, or 10 after a charge). */
export function jqFailed(): boolean {
  return failedOnData;
}

/**
 * What the expression makes of `json` (JSON text: one document, or one value per line, each run
 * through the expression), as text to write, each result on its own line; '' for no result. When
 * it fails on the data, the failure is said on stderr and nothing is printed for it: the command
 * itself ran (a purchase stays bought, its notices and resume key stay said), and exits 2 at its end,
 * or 10 when the run was charged (the kit then names what it bought or extended).
 */
export function jqText(ctx: BaseContext, json: string): string {
  if (!jq || expression === undefined) throw new Error('--jq was not prepared before printing');
  let results: unknown[];
  try {
    results = jq.json(json, expression);
  } catch (err) {
    failedOnData = true;
    const message = err instanceof Error ? err.message : String(err);
    const first = message.split('\n').find((l) => l.startsWith('jq: error')) ?? message;
    const what = escapeControl(first.replace(/^jq: error(?: \(at [^)]*\))?:\s*/, ''));
    ctx.io.stderr.write(`${paintWhen(ctx.stderrColor).red('error:')} --jq: ${what}; nothing printed for it\n`);
    return '';
  }
  const terminal = ctx.io.stdoutIsTTY;
  let out = '';
  for (const r of results)
    out += `${typeof r === 'string' ? (terminal ? shownRaw(r) : r) : JSON.stringify(r, null, terminal ? 2 : undefined)}\n`;
  return out;
}

/** A raw string on a terminal: its lines and tabs kept, every other control character shown, never obeyed. */
function shownRaw(s: string): string {
  return s
    .split('\n')
    .map((line) => line.split('\t').map(escapeControl).join('\t'))
    .join('\n');
}
