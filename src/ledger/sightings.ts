// What proxyctl saw of the account's money and when, beside the journal for `spend --reconcile`
// (`<dir>/<account>.balances.jsonl`, appended like the journal: one write per line, O_APPEND, a
// line cut short by a kill is skipped). The API client tells every exchange (src/context/sightings.ts);
// three kinds are kept, each with the times of this machine's clock around it:
//
// - a balance read: `{at, sentAt, balanceUsd}`, the balance as the server had it at some moment
//   between the request leaving (`sentAt`) and its answer (`at`);
// - a charge answered: `{at, sentAt, debit}`, the debit (a journal entry id) made at some moment
//   in that window (a replayed answer is not one: its debit was made earlier);
// - a purchase leaving: `{at, sending}` with its Idempotency-Key, written before the request goes,
//   so a debit a killed run never entered, entered later by the run that resumes it, is known to
//   have been made after this time.
//
// Parallel processes append in the order they write, not the order things happened: readers sort
// by these times. Lines written by `noteBalance` (`{at, balanceUsd}`, no `sentAt`) are a reading
// noted after it was read: kept for the SDK and older files, dropped where a seen read gives the
// same balance just before (the same reading, told twice).
// fs.promises, read at each call: every command notes sightings, and node:fs/promises (with the
// modules it loads) is only needed once a balance is seen.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../api/client.js';
import { createEntryId, extendEntryId, type Journal } from './journal.js';

export type Sighting =
  | { at: string; sentAt?: string | undefined; balanceUsd: number }
  | { at: string; sentAt: string; debit: string }
  | { at: string; sending: string };

/** A time window on this machine's clock, in ms: something happened at a moment in [from, to]. */
export interface Window {
  from: number;
  to: number;
}

export interface Reading extends Window {
  /** As written: when the answer came (or the reading was noted). */
  at: string;
  balanceUsd: number;
}

export interface Sightings {
  /** Balance readings, by when they were read. */
  readings: Reading[];
  /** The window in which each debit proxyctl saw answered was made, by entry id. */
  charged: Map<string, Window>;
  /** The first time a purchase with this Idempotency-Key left. */
  sending: Map<string, number>;
}

export function sightingsPath(journal: Journal): string {
  return join(journal.dir, `${journal.account}.balances.jsonl`);
}

export async function recordSighting(journal: Journal, sighting: Sighting): Promise<void> {
  await fsp.mkdir(journal.dir, { recursive: true, mode: 0o700 });
  await fsp.appendFile(sightingsPath(journal), `${JSON.stringify(sighting)}\n`, { mode: 0o600, flag: 'a' });
}

const iso = (ms: number) => new Date(ms).toISOString();
const EXTEND = /^\/units\/([^/]+)\/extend$/;

/** What of an exchange goes in the file, if anything: balance reads, charges answered, purchases leaving with a key. */
export function sightingOf(x: Exchange): Sighting | undefined {
  if (!x.answer) {
    return x.method === 'POST' && x.path === '/units' && x.idempotencyKey ? { at: iso(x.sentAt), sending: x.idempotencyKey } : undefined;
  }
  const a = x.answer;
  const data = (typeof a.data === 'object' && a.data !== null ? a.data : {}) as Record<string, unknown>;
  const window = { at: iso(a.at), sentAt: iso(x.sentAt) };
  if (x.method === 'GET' && (x.path === '/account' || x.path === '/me')) {
    return typeof data.balanceUsd === 'number' && Number.isFinite(data.balanceUsd) ? { ...window, balanceUsd: data.balanceUsd } : undefined;
  }
  if (x.method !== 'POST' || a.replayed || a.status >= 300) return undefined;
  if (x.path === '/units' && typeof data.proxyRef === 'string') return { ...window, debit: createEntryId(data.proxyRef) };
  const extend = EXTEND.exec(x.path);
  if (extend && data.extended === true && typeof data.expiresAt === 'string') {
    const ref = typeof data.proxyRef === 'string' ? data.proxyRef : decodeURIComponent(extend[1]!);
    return { ...window, debit: extendEntryId(ref, data.expiresAt) };
  }
  return undefined;
}

/** A noted reading this close after a seen one of the same balance is that reading, told again. */
const TWIN_MS = 10 * 60_000;

const time = (v: unknown): number | undefined => {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) ? t : undefined;
};
const cents = (n: number) => Math.round(n * 100);

export async function readSightings(journal: Journal): Promise<Sightings> {
  let text: string;
  try {
    text = await fsp.readFile(sightingsPath(journal), 'utf8');
  } catch {
    text = '';
  }
  const seen: Reading[] = [];
  const noted: Reading[] = [];
  const charged = new Map<string, Window>();
  const sending = new Map<string, number>();
  for (const line of text.split('\n')) {
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a line cut short by a kill
    }
    if (typeof v !== 'object' || v === null) continue;
    const at = time(v.at);
    if (at === undefined) continue;
    const sentAt = time(v.sentAt);
    if (typeof v.balanceUsd === 'number' && Number.isFinite(v.balanceUsd)) {
      const r = { at: v.at as string, balanceUsd: v.balanceUsd, from: Math.min(sentAt ?? at, at), to: at };
      (sentAt === undefined ? noted : seen).push(r);
    } else if (typeof v.debit === 'string' && sentAt !== undefined) {
      if (!charged.has(v.debit)) charged.set(v.debit, { from: Math.min(sentAt, at), to: at });
    } else if (typeof v.sending === 'string') {
      sending.set(v.sending, Math.min(at, sending.get(v.sending) ?? at));
    }
  }
  const seenAt = new Map<number, number[]>();
  for (const r of seen) {
    const list = seenAt.get(cents(r.balanceUsd));
    if (list) list.push(r.to);
    else seenAt.set(cents(r.balanceUsd), [r.to]);
  }
  const twin = (n: Reading) => (seenAt.get(cents(n.balanceUsd)) ?? []).some((t) => t <= n.to && n.to - t <= TWIN_MS);
  const readings = [...seen, ...noted.filter((n) => !twin(n))].sort((a, b) => a.to - b.to || a.from - b.from);
  return { readings, charged, sending };
}
