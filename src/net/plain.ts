// Which lists of a paged answer need no escaping for a terminal, decided once per page from the
// bytes of the body rather than once per string of every item (which, for a 10,000-unit `-o conn`
// export, showed in its time; bench/RESULTS.md).
//
// A JSON text whose bytes are all printable ASCII (0x20–0x7E, and JSON's whitespace between tokens)
// and hold no backslash parses to strings (keys too) of printable ASCII only: inside a JSON string
// a character is either itself (JSON.parse rejects a raw U+0000–U+001F there) or an escape, and
// every escape starts with a backslash. Such strings hold nothing src/output/escape.ts escapes
// (C0, DEL, C1, bidi controls): the check the output layer makes per string can be skipped. Any
// other byte (DEL, UTF-8, a backslash: `\n`, `\u001b`, even a harmless `\/`) means "not known":
// every string is checked as before.
import { isAscii } from 'node:buffer';

const BACKSLASH = 0x5c;
const DEL = 0x7f;

/** The body's bytes are printable ASCII, JSON whitespace, no backslash: see above. */
export function isPlainJsonText(bytes: Uint8Array): boolean {
  return isAscii(bytes) && !bytes.includes(BACKSLASH) && !bytes.includes(DEL);
}

const plainLists = new WeakSet<readonly unknown[]>();

/** Notes that no string in these items (nor key) needs escaping: they were parsed from a plain text. */
export function markPlain(items: readonly unknown[]): void {
  plainLists.add(items);
}

/** True only for a list marked by markPlain (the API client's pages, as they came). */
export function isPlainList(items: readonly unknown[]): boolean {
  return plainLists.has(items);
}
