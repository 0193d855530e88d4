// The page-level escape skip (src/net/plain.ts): a body judged plain can hold no string the output
// layer would escape, checked against escapeControl itself for every UTF-16 code unit, raw in the
// text and as the escape JSON.stringify or a server could write for it; and the client marks the
// items of such pages only.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { isPlainJsonText, isPlainList } from '../../src/net/plain.js';
import { unit } from '../../src/api/shapes.js';
import { escapeControl } from '../../src/output/escape.js';
import { rawBody, type ScriptedServer, startScriptedServer } from '../helpers/index.js';

const plain = (text: string) => isPlainJsonText(Buffer.from(text, 'utf8'));

/** Every string in a parsed JSON value, keys included. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  return out;
}

/** What the skip relies on: a text judged plain does not parse, or nothing in it needs escaping. */
function skipIsSafe(text: string): boolean {
  if (!plain(text)) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return true;
  }
  return strings(parsed).every((s) => escapeControl(s) === s);
}

describe('isPlainJsonText', () => {
  it('never lets through a character escapeControl changes, raw or written as any JSON escape, in a value or a key', () => {
    let unsafe = 0;
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (escapeControl(ch) === ch) continue;
      unsafe += 1;
      const hex = c.toString(16).padStart(4, '0');
      for (const written of [ch, JSON.stringify(ch).slice(1, -1), `\\u${hex}`, `\\u${hex.toUpperCase()}`]) {
        for (const text of [`{"data":[{"k":"a${written}b"}]}`, `{"data":[{"a${written}b":1}]}`]) {
          expect(skipIsSafe(text), `U+${hex} as ${JSON.stringify(written)} in ${text}`).toBe(true);
          // Only a raw C0 character is "plain" by its bytes, and JSON.parse refuses it inside a string.
          if (c >= 0x20 || written !== ch) expect(plain(text)).toBe(false);
        }
      }
    }
    // C0 (32), DEL and C1 (33), bidi (5 + 4).
    expect(unsafe).toBe(74);
  });

  it('is true only for printable ASCII without a backslash (JSON whitespace allowed)', () => {
    for (let c = 0x20; c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      expect(escapeControl(ch)).toBe(ch);
      if (ch !== '\\' && ch !== '"') expect(plain(`{"k":"a${ch}b"}`)).toBe(true);
    }
    expect(plain('{\n\t"data": [ {"ip": "203.0.113.1", "port": 1} ]\r\n}')).toBe(true);
    // Harmless, but not known without parsing: every string is checked as before.
    expect(plain('{"url":"http:\\/\\/x"}')).toBe(false);
    expect(plain('{"city":"Zürich"}')).toBe(false);
    expect(plain('\ufeff{"a":1}')).toBe(false);
  });
});

describe('ApiClient.pages', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('marks the items of a page whose body is plain, and no other', async () => {
    const bodies = [
      '{"data":[{"proxyRef":"PRX-1","ip":"203.0.113.1"}],"pagination":{"hasNext":true}}',
      '{"data":[{"proxyRef":"PRX-2","ip":"203.0.113.1\\u001b[2J"}],"pagination":{"hasNext":true}}',
      '{"data":[{"proxyRef":"PRX-3","ip":"203.0.113.\u009b1"}],"pagination":{"hasNext":false}}',
    ];
    server = await startScriptedServer((req, res) =>
      rawBody(res, 200, bodies[Number(new URL(req.url, 'http://x').searchParams.get('page')) - 1]!),
    );
    const c = new ApiClient({
      baseUrl: server.url,
      apiKey: 'sk_test_plain',
      timeoutMs: 2000,
      env: {},
      signal: new AbortController().signal,
      userAgent: 'proxyctl/test',
    });
    const seen: [unknown, boolean][] = [];
    for await (const page of c.pages<{ proxyRef: string }>('/units', unit)) seen.push([page.items[0]?.proxyRef, isPlainList(page.items)]);
    expect(seen).toEqual([
      ['PRX-1', true],
      ['PRX-2', false],
      ['PRX-3', false],
    ]);
  });
});
