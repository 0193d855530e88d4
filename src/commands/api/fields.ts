// `proxyctl api -f/-F key=value` and `-H 'Name: value'`, read as gh api reads them: -f is always a
// string, -F is typed (true, false, null, numbers; @file reads a file, @- stdin), and a key may
// nest (`a[b]=1` → {"a":{"b":1}}, `a[]=1` appends to an array). Nothing here sends anything.
import { UsageError } from '../../errors.js';

export type FieldValue = string | number | boolean | null;

export interface Field {
  /** As written (`a[b]`): the query-string name. */
  key: string;
  /** The key's parts (`['a', 'b']`; '' for `[]`): the JSON body's nesting. */
  parts: string[];
  value: FieldValue;
}

const KEY = /^([^[\]=]+)((?:\[[^[\]]*\])*)$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Splits `key=value` at the first "=" and checks the key's shape; `flag` names the flag in errors. */
export function splitField(raw: string, flag: '-f' | '-F'): { key: string; parts: string[]; text: string } {
  const eq = raw.indexOf('=');
  const key = eq < 0 ? raw : raw.slice(0, eq);
  const m = eq > 0 ? KEY.exec(key) : null;
  if (!m) throw new UsageError(`${flag} "${raw}": expected key=value (a key may nest: a[b]=value, a[]=value)`);
  const parts = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
  return { key, parts, text: raw.slice(eq + 1) };
}

/** -F's value: true, false, null and numbers become JSON values; anything else stays a string. */
export function typedValue(text: string): FieldValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (NUMBER.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/** The fields as a JSON object, nested by their keys; a key used both as a value and a container is refused. */
export function fieldsBody(fields: readonly Field[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const f of fields) {
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < f.parts.length; i++) {
      const part = f.parts[i]!;
      const last = i === f.parts.length - 1;
      const nextIsArray = !last && f.parts[i + 1] === '';
      if (Array.isArray(node)) {
        if (part !== '') throw clash(f);
        if (last) node.push(f.value);
        else {
          const child: Record<string, unknown> | unknown[] = nextIsArray ? [] : {};
          node.push(child);
          node = child;
        }
        continue;
      }
      if (part === '') throw clash(f);
      if (last) {
        if (part in node) throw clash(f);
        node[part] = f.value;
        continue;
      }
      const existing = node[part];
      if (existing === undefined) node[part] = nextIsArray ? [] : {};
      else if (typeof existing !== 'object' || existing === null || Array.isArray(existing) !== nextIsArray) throw clash(f);
      node = node[part] as Record<string, unknown> | unknown[];
    }
  }
  return root;
}

function clash(f: Field): UsageError {
  return new UsageError(`field "${f.key}" clashes with another field of the same name`);
}

/** The fields as query-string pairs, in order (`a[]` may repeat); null is an empty value. */
export function fieldsQuery(fields: readonly Field[]): [string, string][] {
  return fields.map((f) => [f.key, f.value === null ? '' : String(f.value)]);
}

/** Header names proxyctl owns: the API key never comes from the command line. */
const REFUSED = new Set(['x-api-key', 'authorization', 'host', 'content-length', 'transfer-encoding', 'connection']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `-H 'Name: value'` → lower-case name and value; the key's headers and framing headers are refused. */
export function parseHeaders(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of raw) {
    const colon = h.indexOf(':');
    const name = colon < 0 ? '' : h.slice(0, colon).trim();
    const value = colon < 0 ? '' : h.slice(colon + 1).trim();
    // The whole argument is never echoed: a mistyped one may hold a secret.
    if (colon < 0) throw new UsageError(`-H expects 'Name: value'; one has no ":"`);
    if (!TOKEN.test(name)) throw new UsageError(`-H "${name}": not a header name (letters, digits and - . _ and the like)`);
    if (/[\r\n\0]/.test(value)) throw new UsageError(`-H ${name}: the value holds a line break`);
    const lower = name.toLowerCase();
    if (lower === 'x-api-key' || lower === 'authorization')
      throw new UsageError(`-H ${name}: the API key is never taken from the command line`, {
        hint: 'set PROXYCTL_API_KEY or run proxyctl login; proxyctl sends the key itself',
      });
    if (REFUSED.has(lower)) throw new UsageError(`-H ${name}: proxyctl sets this header itself`);
    out[lower] = value;
  }
  return out;
}
