// The escaping rule for human output: control characters shown, never obeyed.
import { describe, expect, it } from 'vitest';
import { escapeControl, escapeDeep } from '../../src/output/escape.js';
import { cell } from '../../src/output/format.js';
import { createContext, resolveGlobals } from '../../src/context/index.js';
import { fakeIO } from '../helpers/index.js';

describe('escapeControl', () => {
  it('shows C0, DEL and C1 characters as visible escapes', () => {
    expect(escapeControl('a\u001b]0;pwned\u0007b')).toBe('a\\x1b]0;pwned\\x07b');
    expect(escapeControl('\u001b[2J\u001b[H')).toBe('\\x1b[2J\\x1b[H');
    expect(escapeControl('x\u007fy\u0085z\u009b1m\u0000')).toBe('x\\x7fy\\x85z\\x9b1m\\x00');
  });

  it('escapes line breaks and tabs too, so a field cannot fake a line', () => {
    expect(escapeControl('ok\r\nerror: fake\tline')).toBe('ok\\r\\nerror: fake\\tline');
  });

  it('escapes bidirectional overrides, which reorder what is shown', () => {
    expect(escapeControl('abc\u202edef\u2066')).toBe('abc\\u202edef\\u2066');
  });

  it('leaves printable text (including non-ASCII and backslashes) alone and is idempotent', () => {
    const s = 'Zürich – 東京 ✓ C:\\path \\x1b';
    expect(escapeControl(s)).toBe(s);
    const once = escapeControl('a\u001bb\nc');
    expect(escapeControl(once)).toBe(once);
  });
});

describe('escapeDeep', () => {
  it('escapes every string and key of a value, keeping numbers, booleans and null', () => {
    const v = { name: 'x\u001by', n: 3, ok: false, none: null, list: ['a\rb', 1], nested: { 'k\u0007': 'v\u009b' } };
    expect(escapeDeep(v)).toEqual({ name: 'x\\x1by', n: 3, ok: false, none: null, list: ['a\\rb', 1], nested: { 'k\\x07': 'v\\x9b' } });
    expect(v.name).toBe('x\u001by');
  });
});

describe('cell', () => {
  it('escapes strings and the compact JSON of objects (JSON.stringify leaves DEL and C1 raw)', () => {
    expect(cell('a\u001bb')).toBe('a\\x1bb');
    expect(cell({ a: '\u007f\u0090' })).toBe('{"a":"\\x7f\\x90"}');
    expect(cell(null)).toBe('-');
  });
});

describe('notices and warnings', () => {
  it('show server text escaped, with the warning colour of our own intact', () => {
    const io = fakeIO({ env: { FORCE_COLOR: '1' } });
    const ctx = createContext(io, resolveGlobals({}, io), new AbortController().signal);
    ctx.notice('page 1 of 2\u001b[2J (3 units)');
    ctx.warn('receiver said\r\nerror: fake');
    expect(io.err()).toBe('page 1 of 2\\x1b[2J (3 units)\n\u001b[33mwarning:\u001b[39m receiver said\\r\\nerror: fake\n');
  });
});
