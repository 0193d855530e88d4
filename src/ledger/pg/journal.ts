// The journal in the shared database: the same debits, ids, merge and attribution as the file
// journal (journal.ts), one row per debit (schema.ts). A debit the database cannot take is kept in
// this machine's journal file instead, and the error says so: nothing charged goes unrecorded, and
// `proxyctl ledger push` copies it once the database is back.
import { LedgerUnavailableError } from '../../errors.js';
import { attribute, attributor, type Journal, type LedgerEntry, type LedgerSource, type TagEntry } from '../journal.js';
import type { JournalStore } from '../store.js';
import { lostMidRun, unavailable, type Db } from './db.js';

const RUN_SOURCES: readonly LedgerSource[] = ['cli', 'sdk', 'mcp'];
/** Rows sent in one statement. */
const CHUNK = 500;
/** Debits read in one statement by pages(). */
const PAGE = 2000;

type Line = Record<string, unknown>;

/** A line as stored: no undefined or null fields (a merge takes the first value a field has), and its time in ms. */
function stored(e: LedgerEntry): Line {
  const out: Line = {};
  for (const [k, v] of Object.entries(e)) if (v !== undefined && v !== null) out[k] = v;
  const ms = Date.parse(e.at);
  if (Number.isFinite(ms)) out.atMs = ms;
  return out;
}

/** Lines of one id merged as mergeDebit does, the run's lines and the webhook's apart (first value of each field wins). */
export function mergedRows(lines: readonly LedgerEntry[]): { id: string; run: Line | null; seen: Line | null }[] {
  const rows = new Map<string, { id: string; run: Line | null; seen: Line | null }>();
  for (const e of lines) {
    let row = rows.get(e.id);
    if (!row) {
      row = { id: e.id, run: null, seen: null };
      rows.set(e.id, row);
    }
    const side = RUN_SOURCES.includes(e.source) ? 'run' : 'seen';
    row[side] = { ...stored(e), ...(row[side] ?? {}) };
  }
  return [...rows.values()];
}

/** Enters rows (see mergedRows), merged with what the database holds; how many ids were new. */
export async function insertDebits(
  q: Db['query'],
  account: string,
  rows: readonly { id: string; run: Line | null; seen: Line | null }[],
): Promise<number> {
  let fresh = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const r = await q<{ inserted: boolean }>(
      `INSERT INTO proxyctl_debits (account, id, run, seen)
       SELECT $1, x.id, x.run, x.seen FROM jsonb_to_recordset($2::jsonb) AS x(id text, run jsonb, seen jsonb)
       ON CONFLICT (account, id) DO UPDATE SET
         run = CASE WHEN EXCLUDED.run IS NULL THEN proxyctl_debits.run ELSE EXCLUDED.run || coalesce(proxyctl_debits.run, '{}'::jsonb) END,
         seen = CASE WHEN EXCLUDED.seen IS NULL THEN proxyctl_debits.seen ELSE EXCLUDED.seen || coalesce(proxyctl_debits.seen, '{}'::jsonb) END
       RETURNING (xmax = 0) AS inserted`,
      [account, JSON.stringify(rows.slice(i, i + CHUNK))],
    );
    fresh += r.filter((x) => x.inserted).length;
  }
  return fresh;
}

/** Enters tag lines, each once. */
export async function insertTags(q: Db['query'], account: string, tags: readonly TagEntry[]): Promise<number> {
  let fresh = 0;
  for (let i = 0; i < tags.length; i += CHUNK) {
    const lines = tags.slice(i, i + CHUNK).map((t) => {
      const out: Line = {};
      for (const [k, v] of Object.entries(t)) if (v !== undefined) out[k] = v;
      return out;
    });
    const r = await q<{ seq: string }>(
      `INSERT INTO proxyctl_tags (account, line) SELECT $1, x FROM jsonb_array_elements($2::jsonb) AS x
       ON CONFLICT (account, line) DO NOTHING RETURNING seq`,
      [account, JSON.stringify(lines)],
    );
    fresh += r.length;
  }
  return fresh;
}

function entryOf(row: Line): LedgerEntry | undefined {
  const { atMs: _, ...e } = row;
  if (typeof e.id !== 'string' || typeof e.ref !== 'string' || typeof e.at !== 'string' || typeof e.priceUsd !== 'number') return undefined;
  return e as unknown as LedgerEntry;
}

export class PgJournal implements JournalStore {
  constructor(
    private readonly db: Db,
    readonly account: string,
    /** This machine's journal file: where a debit the database cannot take is kept. */
    private readonly local: Journal,
  ) {}

  get where(): string {
    return this.db.where;
  }

  async enter(entries: readonly LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await insertDebits((t, v) => this.db.query(t, v), this.account, mergedRows(entries));
    } catch (err) {
      const cause = unavailable(this.db.where, err);
      try {
        await this.local.enter(entries);
      } catch (localErr) {
        throw new LedgerUnavailableError(
          `${cause.message}; and this machine's journal ${this.local.path} could not keep ${entries.length === 1 ? 'the debit' : `the ${entries.length} debits`} either (${(localErr as Error).message}): ${entries.map((e) => e.id).join(', ')}`,
          { cause: err },
        );
      }
      const n = entries.length === 1 ? 'the debit' : `${entries.length} debits`;
      throw lostMidRun(
        this.db.where,
        cause,
        `${n} it could not enter there ${entries.length === 1 ? 'is' : 'are'} kept in this machine's journal ${this.local.path}`,
      );
    }
  }

  async tag(tags: readonly TagEntry[]): Promise<void> {
    if (tags.length === 0) return;
    try {
      await insertTags((t, v) => this.db.query(t, v), this.account, tags);
    } catch (err) {
      // Kept on this machine instead: `ledger push` copies it once the database is back.
      await this.local.tag(tags);
      const cause = unavailable(this.db.where, err);
      throw new LedgerUnavailableError(
        `${cause.message}; the tag is kept in this machine's journal ${this.local.path} for proxyctl ledger push`,
        {
          cause: err,
        },
      );
    }
  }

  async read(): Promise<LedgerEntry[]> {
    const [debits, tags] = await Promise.all([
      this.db.query<{ e: Line }>(
        `SELECT coalesce(seen, '{}'::jsonb) || coalesce(run, '{}'::jsonb) AS e FROM proxyctl_debits WHERE account = $1 ORDER BY seq`,
        [this.account],
      ),
      this.db.query<{ line: TagEntry }>('SELECT line FROM proxyctl_tags WHERE account = $1 ORDER BY seq', [this.account]),
    ]);
    const entries = debits.flatMap((r) => {
      const e = entryOf(r.e);
      return e ? [e] : [];
    });
    return attribute(
      entries,
      tags.map((t) => t.line),
    );
  }

  /**
   * read()'s debits, a page at a time: keyset pages by seq (the order of first entry, indexed), each
   * row already one merged debit (the database merges a debit's lines as they arrive), so no merge
   * spans two pages. The tags are read first, whole (attribution needs them all, and they are few),
   * and the last seq then bounds the pages: debits entered meanwhile wait for the next read, as they
   * would for read(). Between two pages a debit already handed on may be merged with a later line;
   * it is given as it stood, as read() a moment earlier would have given it.
   */
  async *pages(): AsyncGenerator<LedgerEntry[]> {
    const [tags, top] = await Promise.all([
      this.db.query<{ line: TagEntry }>('SELECT line FROM proxyctl_tags WHERE account = $1 ORDER BY seq', [this.account]),
      this.db.query<{ last: string | null }>('SELECT max(seq) AS last FROM proxyctl_debits WHERE account = $1', [this.account]),
    ]);
    const last = top[0]?.last;
    if (last === null || last === undefined) return;
    const give = attributor(tags.map((t) => t.line));
    let after = '0';
    for (;;) {
      const rows = await this.db.query<{ seq: string; e: Line }>(
        `SELECT seq, coalesce(seen, '{}'::jsonb) || coalesce(run, '{}'::jsonb) AS e FROM proxyctl_debits
         WHERE account = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT ${PAGE}`,
        [this.account, after, last],
      );
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.seq;
      const page: LedgerEntry[] = [];
      for (const r of rows) {
        const e = entryOf(r.e);
        if (e) page.push(give(e));
      }
      if (page.length > 0) yield page;
      if (rows.length < PAGE) return;
    }
  }

  async ids(): Promise<Set<string>> {
    const rows = await this.db.query<{ id: string }>('SELECT id FROM proxyctl_debits WHERE account = $1', [this.account]);
    return new Set(rows.map((r) => r.id));
  }

  /** How many of these ids the database holds. */
  async known(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.db.query<{ n: string }>('SELECT count(*) AS n FROM proxyctl_debits WHERE account = $1 AND id = ANY($2)', [
      this.account,
      ids,
    ]);
    return Number(rows[0]?.n ?? 0);
  }
}
