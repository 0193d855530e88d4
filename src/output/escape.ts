// Text from the server (or from a webhook sender) must never drive the terminal: an ESC in a pool
// name could set the window title or clear the screen, a CR or LF could print a fake line. Every
// human-facing output path (tables, tsv, csv, conn, notices, errors, progress, spinner, follow
// and listen lines) passes server text through here; JSON output does not (JSON.stringify already
// escapes control characters, and a script must get the value verbatim).
//
// Escaped, visibly: C0 (U+0000–U+001F, including \t \n \r), DEL (U+007F), C1 (U+0080–U+009F) and
// the bidirectional overrides/isolates (U+202A–U+202E, U+2066–U+2069), which reorder what is shown.
// Backslashes are left alone, so escaping twice changes nothing.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_TEST = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** "a\x1b]0;pwned\x07b" → "a\\x1b]0;pwned\\x07b": control characters shown, never obeyed. */
export function escapeControl(s: string): string {
  return UNSAFE_TEST.test(s) ? s.replace(UNSAFE, visible) : s;
}

/** The same value with every string in it (and every key) escaped; numbers, booleans and null as they are. */
export function escapeDeep<T>(value: T): T {
  // Nearly every value has nothing to escape: then it is returned as it is, not copied (copying
  // every unit of a long `units list --all` cost more than fetching them; bench/RESULTS.md).
  return needsEscape(value) ? escapeCopy(value) : value;
}

function needsEscape(value: unknown): boolean {
  if (typeof value === 'string') return UNSAFE_TEST.test(value);
  if (Array.isArray(value)) return value.some(needsEscape);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const k in value) {
      if (Object.hasOwn(value, k) && (UNSAFE_TEST.test(k) || needsEscape((value as Record<string, unknown>)[k]))) return true;
    }
  }
  return false;
}

function escapeCopy<T>(value: T): T {
  if (typeof value === 'string') return escapeControl(value) as T;
  if (Array.isArray(value)) return value.map((v) => escapeCopy(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[escapeControl(k)] = escapeCopy(v);
    return out as T;
  }
  return value;
}
