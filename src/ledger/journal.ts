// The ledger: every debit proxyctl causes or sees, one JSON object per line in a journal per
// account (`<dir>/<account>.jsonl`, in the data dir, never config.json). Append-only: a line is
// one write(2) to a file opened with O_APPEND, so parallel processes never interleave or overwrite
// each other, and kill -9 can cut at most the line being written, which readers skip.
//
// Exact by construction: each debit line has an `id` that names the debit itself, not the run that
// saw it (`create:<ref>`, `extend:<ref>:<new expiry>`), and readers merge the lines of one id into
// one debit (mergeDebit), counted once. So a purchase entered by the CLI and seen again as a
// webhook event, or entered again when a resumed batch replays it (which also recovers an entry
// lost to a kill between the debit and the write), counts once, and whichever writer came first,
// the debit reads the same. Refunded failures and replays of failures are never entered.
//
// Lines of another kind sit beside the debits: `{"kind":"tag",…}` says proxyctl changed a unit's
// customer tag (`units modify`, MCP `modify_units`). Readers never count them; attribute() reads
// them to give a debit entered without a customer to the customer its unit had (or got).
// fs.promises, read at each call: this module is loaded by every command that may see a balance,
// and node:fs/promises (with the modules it loads) only when the journal is really read or written.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export type LedgerSource = 'cli' | 'sdk' | 'mcp' | 'webhook';
export type LedgerOperation = 'create' | 'extend';

export interface LedgerEntry {
  /** What was debited, the same whoever entered it: `create:<ref>` or `extend:<ref>:<expiresAt>`. */
  id: string;
  /** When the debit happened (ISO 8601), as far as proxyctl knows it. */
  at: string;
  profile?: string | undefined;
  source: LedgerSource;
  operation: LedgerOperation;
  ref: string;
  poolId?: string | undefined;
  country?: string | undefined;
  period?: string | undefined;
  /** USD debited for this unit and operation: the quoted price, or the event's `pricePaid`. */
  priceUsd: number;
  /** The balance read back from the API after the run that made it, when it could be read. */
  balanceUsd?: number | undefined;
  idempotencyKey?: string | undefined;
  /** The unit's description when the debit was entered (holds `customer=NAME`). */
  description?: string | undefined;
  customer?: string | undefined;
  /** The budget hold of the run that entered it, so that run's hold and its debits are not counted twice. */
  hold?: string | undefined;
}

/** The country of a pool: its id is the ISO code, a hyphen and a number (spec 2.4). */
export function countryOfPool(poolId: string | undefined): string | undefined {
  const m = poolId ? /^([A-Za-z]{2})-/.exec(poolId) : null;
  return m ? m[1]!.toUpperCase() : undefined;
}

export const createEntryId = (ref: string) => `create:${ref}`;
/** The expiry in one spelling (servers may write +00:00 or Z, with or without milliseconds). */
function sameInstant(t: string): string {
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : t;
}
export const extendEntryId = (ref: string, expiresAt: string) => `extend:${ref}:${sameInstant(expiresAt)}`;

/**
 * A unit's customer tag as proxyctl set it: `customer` is the tag after the change (absent: the
 * unit has none now), `from` the one before when proxyctl read it (null: it had none; absent: not
 * read, e.g. a whole new --description).
 */
export interface TagEntry {
  kind: 'tag';
  ref: string;
  /** When the tag was written (ISO 8601). */
  at: string;
  customer?: string | undefined;
  from?: string | null | undefined;
  profile?: string | undefined;
}

export class Journal {
  readonly path: string;

  constructor(
    readonly dir: string,
    readonly account: string,
  ) {
    this.path = join(dir, `${account}.jsonl`);
  }

  /** Where it lives, for messages (JournalStore). */
  get where(): string {
    return this.path;
  }

  /** Appends debits, one write per entry. Never throws for a duplicate: readers merge lines of one id. */
  async enter(entries: readonly LedgerEntry[]): Promise<void> {
    await this.append(entries);
  }

  /** Appends a change of a unit's customer tag (see attribute). */
  async tag(tags: readonly TagEntry[]): Promise<void> {
    await this.append(tags);
  }

  private async append(lines: readonly object[]): Promise<void> {
    if (lines.length === 0) return;
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const l of lines) await fsp.appendFile(this.path, `${JSON.stringify(l)}\n`, { mode: 0o600, flag: 'a' });
  }

  /**
   * Every debit once, in the order its first line was written: the lines of one id merged
   * (mergeDebit), and each debit given to its customer (attribute). What spend, status, budgets
   * and reports read.
   */
  async read(): Promise<LedgerEntry[]> {
    const { debits, tags } = await this.lines();
    const byId = new Map<string, LedgerEntry[]>();
    for (const d of debits) {
      const same = byId.get(d.id);
      if (same) same.push(d);
      else byId.set(d.id, [d]);
    }
    return attribute([...byId.values()].map(mergeDebit), tags);
  }

  /**
   * The same debits as read(), each the same, a page at a time, without holding the journal: for
   * readers that sum or print as they go (spend, status, budgets), whose memory must not grow with
   * the journal. `ordered`: in read()'s order (the order of each debit's first line); else in the
   * order each debit is complete, which holds less (a sum in whole cents does not need the order).
   *
   * The file is read twice. The first pass keeps, per debit id, only a 64-bit hash and how many
   * lines it has (IdCounts, 12 bytes a slot), and the tag lines (attribute() needs them all). The
   * second pass hands a debit on as soon as its last line is read: a debit of one line at once,
   * one of several lines (a run's line and the webhook's, a replay) held until its last. So what is
   * held is the debits whose lines are still to come, plus, when ordered, the debits behind the
   * oldest of them. Both passes stop where the first ended: lines appended meanwhile wait for the
   * next read, as they would for read(). Two ids whose hashes collide only wait longer (to the end
   * at worst), never merge.
   */
  async *pages({ ordered = true }: { ordered?: boolean } = {}): AsyncGenerator<LedgerEntry[]> {
    const counts = new IdCounts();
    const tags: TagEntry[] = [];
    let end = 0;
    for await (const { lines, bytes } of linesOf(this.path, Number.POSITIVE_INFINITY)) {
      end = bytes;
      for (const line of lines) {
        const l = parseLine(line);
        if (l?.tag) tags.push(l.tag);
        else if (l?.debit) counts.add(l.debit.id);
      }
    }
    if (end === 0) return;
    const give = attributor(tags);
    /** Debits of several lines whose last line is still to come: their lines so far, and their place in the order. */
    const pending = new Map<string, { lines: LedgerEntry[]; slot: Slot }>();
    /** When ordered: debits in the order of their first line, from the oldest not handed on yet. */
    const queue: Slot[] = [];
    let head = 0;
    let page: LedgerEntry[] = [];
    const complete = (slot: Slot, entry: LedgerEntry) => {
      slot.entry = give(entry);
      if (!ordered) page.push(slot.entry);
    };
    const drain = () => {
      if (!ordered) return;
      while (head < queue.length && queue[head]!.entry) {
        page.push(queue[head]!.entry as LedgerEntry);
        queue[head++] = DONE;
      }
      if (head === queue.length) {
        queue.length = 0;
        head = 0;
      } else if (head > 4096 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
    };
    for await (const { lines } of linesOf(this.path, end)) {
      for (const line of lines) {
        const debit = parseLine(line)?.debit;
        if (!debit) continue;
        const left = counts.take(debit.id);
        let held = pending.get(debit.id);
        if (!held && left === 0) {
          // The only line of its debit: complete now.
          const slot: Slot = {};
          if (ordered) queue.push(slot);
          complete(slot, mergeDebit([debit]));
          continue;
        }
        if (!held) {
          held = { lines: [], slot: {} };
          pending.set(debit.id, held);
          if (ordered) queue.push(held.slot);
        }
        held.lines.push(debit);
        if (left === 0) {
          pending.delete(debit.id);
          complete(held.slot, mergeDebit(held.lines));
        }
      }
      drain();
      if (page.length > 0) {
        yield page;
        page = [];
      }
    }
    // Lines counted in the first pass but not read again (a file cut meanwhile), or ids whose
    // hashes collide: complete with what was read, in order.
    for (const held of pending.values()) complete(held.slot, mergeDebit(held.lines));
    drain();
    if (page.length > 0) yield page;
  }

  /** Every whole line as written, debits and tags apart, in order (what `ledger push` copies). */
  async lines(): Promise<{ debits: LedgerEntry[]; tags: TagEntry[] }> {
    let text: string;
    try {
      text = await fsp.readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { debits: [], tags: [] };
      throw err;
    }
    const debits: LedgerEntry[] = [];
    const tags: TagEntry[] = [];
    for (const line of text.split('\n')) {
      const l = parseLine(line);
      if (l?.tag) tags.push(l.tag);
      else if (l?.debit) debits.push(l.debit);
    }
    return { debits, tags };
  }

  /** The ids already entered (to tell a new debit from one seen before). */
  async ids(): Promise<Set<string>> {
    return new Set((await this.read()).map((e) => e.id));
  }
}

const RUN_SOURCES: readonly LedgerSource[] = ['cli', 'sdk', 'mcp'];

/**
 * The one rule for lines that name the same debit (one id): they are one debit, its amount counted
 * once. Each field is taken from the first line that has it, reading the lines of the run that made
 * the debit (source cli, sdk or mcp: it knows the customer, the description, its budget hold and
 * idempotency key) before those of `webhook listen --ledger` (which knows what the event says),
 * each in the order written. So where two lines disagree the run's wins, a debit a webhook entered
 * first is completed by the run's line, and which writer came first changes nothing.
 */
export function mergeDebit(lines: readonly LedgerEntry[]): LedgerEntry {
  const rank = (e: LedgerEntry) => (RUN_SOURCES.includes(e.source) ? 0 : 1);
  const ordered = lines.length === 1 ? lines : [...lines].sort((a, b) => rank(a) - rank(b));
  const merged: Record<string, unknown> = {};
  // Keys, not entries: a [key, value] array per field per line was most of what a long read allocated.
  for (const line of ordered) {
    const fields = line as unknown as Record<string, unknown>;
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (merged[k] === undefined && v !== undefined && v !== null) merged[k] = v;
    }
  }
  return merged as unknown as LedgerEntry;
}

/**
 * Who a debit belongs to, the one rule every reader sees (spend --by customer, status, reports):
 * a debit belongs to the customer its unit had when it was debited.
 * - A debit entered with a customer keeps it (the run that made it read the unit's tag).
 * - One entered without (a unit bought untagged, a debit only a webhook saw) takes, from the tags
 *   proxyctl recorded on its ref: the customer the last tag at or before the debit set; else, when
 *   the unit had no customer then (no tag before, or the last one removed it), the first customer
 *   the unit is known to have after it: the next tag's earlier customer where that tag says the
 *   unit already had one, else the customer that tag (or the first later one naming one) set.
 * So tagging untagged units gives their earlier untagged debits to that customer, and retagging
 * from one customer to another leaves past debits where they were.
 */
export function attribute(debits: readonly LedgerEntry[], tags: readonly TagEntry[]): LedgerEntry[] {
  return debits.map(attributor(tags));
}

/** attribute() for one debit at a time (a stream of them): the tags are sorted once. */
export function attributor(tags: readonly TagEntry[]): (d: LedgerEntry) => LedgerEntry {
  if (tags.length === 0) return (d) => d;
  const byRef = new Map<string, TagEntry[]>();
  for (const t of tags) {
    const list = byRef.get(t.ref);
    if (list) list.push(t);
    else byRef.set(t.ref, [t]);
  }
  for (const list of byRef.values()) list.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (d) => {
    if (d.customer !== undefined) return d;
    const list = byRef.get(d.ref);
    if (!list) return d;
    const t = Date.parse(d.at);
    const before = list.filter((x) => Date.parse(x.at) <= t).at(-1);
    if (before?.customer) return { ...d, customer: before.customer };
    const after = list.filter((x) => Date.parse(x.at) > t);
    const next = after[0];
    if (next && typeof next.from === 'string') return { ...d, customer: next.from };
    const named = after.find((x) => x.customer !== undefined)?.customer;
    return named ? { ...d, customer: named } : d;
  };
}

/** A debit's place in read()'s order, filled when its last line is read. */
type Slot = { entry?: LedgerEntry };
/** A slot handed on: the queue lets go of its debit at once. */
const DONE: Slot = Object.freeze({});

/**
 * How many lines each debit id has, in 12 bytes a slot whatever the id's length: an open-addressing
 * table of two 32-bit hashes (FNV-1a and a multiplicative one, so a 64-bit key) and a count. Two
 * ids with the same key share a count, which only makes Journal.pages hold them longer.
 */
class IdCounts {
  private size = 0;
  private mask = (1 << 12) - 1;
  private k1 = new Uint32Array(this.mask + 1);
  private k2 = new Uint32Array(this.mask + 1);
  private n = new Uint32Array(this.mask + 1);

  add(id: string): void {
    if ((this.size + 1) * 4 > (this.mask + 1) * 3) this.grow();
    const i = this.slot(id);
    if (this.n[i] === 0) this.size++;
    this.n[i]! += 1;
  }

  /** Counts one line of `id` read again; how many of its lines are still to come (0: this was its last). */
  take(id: string): number {
    const i = this.slot(id);
    if (this.n[i] === 0) return 0;
    this.n[i]! -= 1;
    return this.n[i]!;
  }

  private slot(id: string): number {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let j = 0; j < id.length; j++) {
      const c = id.charCodeAt(j);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 >>>= 0;
    // Never (0, 0): that is an empty slot's key.
    h2 = h2 >>> 0 || 1;
    let i = (h1 ^ Math.imul(h2, 0x27d4eb2d)) & this.mask;
    // A key once added keeps its slot when its count is taken to 0 (so take() finds it, and a
    // later line of the same id is not counted as a new id).
    while (this.k1[i] !== 0 || this.k2[i] !== 0) {
      if (this.k1[i] === h1 && this.k2[i] === h2) return i;
      i = (i + 1) & this.mask;
    }
    this.k1[i] = h1;
    this.k2[i] = h2;
    return i;
  }

  private grow(): void {
    const [k1, k2, n] = [this.k1, this.k2, this.n];
    this.mask = this.mask * 2 + 1;
    this.k1 = new Uint32Array(this.mask + 1);
    this.k2 = new Uint32Array(this.mask + 1);
    this.n = new Uint32Array(this.mask + 1);
    for (let i = 0; i < n.length; i++) {
      if (k1[i] === 0 && k2[i] === 0) continue;
      let j = (k1[i]! ^ Math.imul(k2[i]!, 0x27d4eb2d)) & this.mask;
      while (this.k1[j] !== 0 || this.k2[j] !== 0) j = (j + 1) & this.mask;
      this.k1[j] = k1[i]!;
      this.k2[j] = k2[i]!;
      this.n[j] = n[i]!;
    }
  }
}

/**
 * The journal's lines, a chunk at a time, up to `limit` bytes: each chunk's whole lines and the
 * bytes read so far. The last line is given even without its newline (a line cut by a kill, which
 * parseLine skips), as read()'s split gives it. Nothing for a journal not written yet.
 */
async function* linesOf(path: string, limit: number): AsyncGenerator<{ lines: string[]; bytes: number }> {
  let file: Awaited<ReturnType<typeof fsp.open>>;
  try {
    file = await fsp.open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    const decoder = new StringDecoder('utf8');
    let bytes = 0;
    let rest = '';
    while (bytes < limit) {
      const { bytesRead } = await file.read(buf, 0, Math.min(buf.length, limit - bytes), null);
      if (bytesRead === 0) break;
      bytes += bytesRead;
      const lines = (rest + decoder.write(buf.subarray(0, bytesRead))).split('\n');
      rest = lines.pop() as string;
      yield { lines, bytes };
    }
    rest += decoder.end();
    if (rest !== '') yield { lines: [rest], bytes };
  } finally {
    await file.close();
  }
}

type Line = { debit: LedgerEntry; tag?: undefined } | { tag: TagEntry; debit?: undefined };

/** One line: a debit, a tag, or undefined for a line cut short by a kill (or any other kind). */
function parseLine(line: string): Line | undefined {
  if (line === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const kind = (v as { kind?: unknown }).kind;
  if (kind === 'tag') {
    const tag = parseTag(v as Partial<TagEntry>);
    return tag && { tag };
  }
  // Debits carry no kind; a kind this version does not know is not a debit.
  if (kind !== undefined) return undefined;
  const e = v as Partial<LedgerEntry>;
  if (typeof e.id !== 'string' || typeof e.ref !== 'string' || typeof e.at !== 'string') return undefined;
  if (typeof e.priceUsd !== 'number' || !Number.isFinite(e.priceUsd)) return undefined;
  if (e.operation !== 'create' && e.operation !== 'extend') return undefined;
  return { debit: e as LedgerEntry };
}

function parseTag(t: Partial<TagEntry>): TagEntry | undefined {
  if (typeof t.ref !== 'string' || typeof t.at !== 'string' || !Number.isFinite(Date.parse(t.at))) return undefined;
  if (t.customer !== undefined && typeof t.customer !== 'string') return undefined;
  const from = typeof t.from === 'string' || t.from === null ? t.from : undefined;
  return { kind: 'tag', ref: t.ref, at: t.at, customer: t.customer, from, profile: t.profile };
}
