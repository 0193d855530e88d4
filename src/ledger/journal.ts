// The ledger: every debit proxyctl causes or sees, one JSON object per line in a journal per
// account (`<dir>/<account>.jsonl`, in the data dir, never config.json). Append-only: an entry is
// one write(2) of one line to a file opened with O_APPEND, so parallel processes never interleave
// or overwrite each other, and kill -9 can cut at most the line being written, which readers skip.
//
// Exact by construction: each entry has an `id` that names the debit itself, not the run that saw
// it (`create:<ref>`, `extend:<ref>:<new expiry>`), and readers keep the first entry of each id.
// So a purchase entered by the CLI and seen again as a webhook event, or entered again when a
// resumed batch replays it (which also recovers an entry lost to a kill between the debit and the
// write), counts once. Refunded failures and replays of failures are never entered.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

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

export class Journal {
  readonly path: string;

  constructor(
    readonly dir: string,
    readonly account: string,
  ) {
    this.path = join(dir, `${account}.jsonl`);
  }

  /** Appends entries, one write per entry. Never throws for a duplicate: readers keep the first. */
  async enter(entries: readonly LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const e of entries) await appendFile(this.path, `${JSON.stringify(e)}\n`, { mode: 0o600, flag: 'a' });
  }

  /** Every entry, each debit once (the first line of its id), in the order they were written. */
  async read(): Promise<LedgerEntry[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const seen = new Set<string>();
    const out: LedgerEntry[] = [];
    for (const line of text.split('\n')) {
      const e = parseEntry(line);
      if (!e || seen.has(e.id)) continue;
      seen.add(e.id);
      out.push(e);
    }
    return out;
  }

  /** The ids already entered (to tell a new debit from one seen before). */
  async ids(): Promise<Set<string>> {
    return new Set((await this.read()).map((e) => e.id));
  }
}

/** One line, or undefined for a line cut short by a kill (or anything else that is not an entry). */
function parseEntry(line: string): LedgerEntry | undefined {
  if (line === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const e = v as Partial<LedgerEntry>;
  if (typeof e.id !== 'string' || typeof e.ref !== 'string' || typeof e.at !== 'string') return undefined;
  if (typeof e.priceUsd !== 'number' || !Number.isFinite(e.priceUsd)) return undefined;
  if (e.operation !== 'create' && e.operation !== 'extend') return undefined;
  return e as LedgerEntry;
}
