// Journal.pages (the streamed read spend and status use) against read() on the same file: the same
// debits, each the same, in read()'s order (or, unordered, the same set), whatever the journal
// holds: lines of one id spread far apart and in any order of sources, tags set, changed and
// removed before and after debits, cut lines, lines across the 64 KiB reads, multibyte characters
// cut by a read, no trailing newline.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type LedgerEntry } from '../../src/ledger/journal.js';
import { longJournal } from './long-journal.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function journalOf(text: string): Journal {
  dir = mkdtempSync(join(tmpdir(), 'proxyctl-pages-'));
  const j = new Journal(dir, 'acct');
  writeFileSync(j.path, text);
  return j;
}

async function streamed(j: Journal, ordered: boolean): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  for await (const page of j.pages({ ordered })) out.push(...page);
  return out;
}

/** A small random generator (mulberry32), so a failure is the same every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines of a few hundred ids, each named by 1 to 4 lines anywhere in the file, and tags on their refs. */
function shuffledJournal(seed: number): string {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const lines: string[] = [];
  const t0 = Date.parse('2026-10-01T00:00:00.000Z');
  for (let i = 0; i < 3000; i++) {
    const u = Math.floor(r() * 400);
    const ref = `PRX-${u}`;
    const roll = r();
    if (roll < 0.15) {
      lines.push(
        JSON.stringify({
          kind: 'tag',
          ref,
          at: new Date(t0 + Math.floor(r() * 1e8)).toISOString(),
          customer: r() < 0.2 ? undefined : pick(['a', 'b', 'ç', '客户']),
          from: pick([null, 'a', 'b', undefined]),
        }),
      );
      continue;
    }
    if (roll < 0.18) {
      lines.push(JSON.stringify({ id: `create:${ref}`, ref }).slice(0, 20));
      continue;
    }
    const extend = r() < 0.3;
    lines.push(
      JSON.stringify({
        id: extend ? `extend:${ref}:${u % 3}` : `create:${ref}`,
        at: new Date(t0 + Math.floor(r() * 1e8)).toISOString(),
        source: pick(['cli', 'sdk', 'mcp', 'webhook', 'webhook']),
        operation: extend ? 'extend' : 'create',
        ref,
        priceUsd: pick([1.25, 4.25, 0.1, 7]),
        poolId: r() < 0.5 ? undefined : pick(['US-1', 'DE-2']),
        customer: r() < 0.6 ? undefined : pick(['a', 'b', 'ç']),
        description: r() < 0.5 ? undefined : 'ü'.repeat(Math.floor(r() * 40)),
        hold: r() < 0.5 ? null : `h-${i}`,
      }),
    );
  }
  return lines.join('\n');
}

const byId = (a: LedgerEntry, b: LedgerEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('Journal.pages gives what read() gives', () => {
  it.each([1, 2, 3, 4, 5])('a journal whose debits are spread out and retagged (seed %i)', async (seed) => {
    const j = journalOf(shuffledJournal(seed));
    const whole = await j.read();
    expect(whole.length).toBeGreaterThan(300);
    expect(await streamed(j, true)).toEqual(whole);
    expect((await streamed(j, false)).sort(byId)).toEqual([...whole].sort(byId));
  });

  it('the long journal the CLI tests read, 20,000 debits over many reads', async () => {
    const { text, debits } = longJournal(20_000, Date.parse('2026-11-01T00:00:00.000Z'));
    const j = journalOf(text);
    const whole = await j.read();
    expect(whole).toEqual(debits);
    expect(await streamed(j, true)).toEqual(whole);
    expect((await streamed(j, false)).sort(byId)).toEqual([...whole].sort(byId));
  });

  it('nothing for a journal not written yet, or empty', async () => {
    dir = mkdtempSync(join(tmpdir(), 'proxyctl-pages-'));
    expect(await streamed(new Journal(dir, 'none'), true)).toEqual([]);
    const j = journalOf('');
    expect(await streamed(j, true)).toEqual([]);
  });
});
