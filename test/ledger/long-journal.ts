// A long journal as the CLI and `webhook listen --ledger` write it over time, and each debit as
// every reader must see it (merged, attributed by journal.ts's one rule), in read()'s order: the
// webhook's line of a third of the debits a few lines later (its own `at`: the run's wins), a
// webhook line first and the run's after it, a replayed run line, untagged debits tagged an hour
// later (theirs), then retagged (they stay), a tag an hour before a debit, a tag removed (the unit's
// customer then is the debit's), tagged debits retagged (they keep theirs), lines cut by a kill,
// the last one without its newline. Used by ledger-streaming.test.ts and the team test.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Debit {
  id: string;
  at: string;
  source: string;
  operation: 'create';
  ref: string;
  poolId: string;
  country: string;
  period: string;
  priceUsd: number;
  description?: string;
  customer?: string;
}

export function longJournal(n: number, now: number): { text: string; debits: Debit[] } {
  const lines: string[] = [];
  const debits: Debit[] = [];
  const later: { due: number; line: string }[] = [];
  const t0 = now - 20 * 86_400_000;
  const hour = 3_600_000;
  const tag = (ref: string, at: number, customer: string | undefined, from: string | null) =>
    JSON.stringify({ kind: 'tag', ref, at: new Date(at).toISOString(), customer, from });
  for (let i = 0; i < n; i++) {
    const ref = `PRX-${i}`;
    const t = t0 + i * 1000;
    const at = new Date(t).toISOString();
    const customer = i % 3 === 0 ? undefined : `cust${i % 7}`;
    const debit: Debit = {
      id: `create:${ref}`,
      at,
      source: 'cli',
      operation: 'create',
      ref,
      poolId: 'US-12',
      country: 'US',
      period: '24h',
      priceUsd: i % 2 ? 4.25 : 1.25,
      ...(customer ? { description: `customer=${customer} ü`, customer } : {}),
    };
    const seen = JSON.stringify({
      id: debit.id,
      at: new Date(t + 1000).toISOString(),
      source: 'webhook',
      operation: 'create',
      ref,
      priceUsd: debit.priceUsd,
    });
    if (i % 1000 === 7) {
      // The webhook's line first, the run's two lines later.
      lines.push(seen);
      later.push({ due: lines.length + 2, line: JSON.stringify(debit) });
    } else lines.push(JSON.stringify(debit));
    if (i % 4 === 1) later.push({ due: lines.length + 3, line: seen });
    if (i % 2000 === 11) later.push({ due: lines.length + 10, line: JSON.stringify(debit) });
    let attributed = customer;
    if (i % 300 === 0) {
      later.push({ due: lines.length + 2, line: tag(ref, t + hour, 'late', null) });
      if (i % 600 === 0) later.push({ due: lines.length + 4, line: tag(ref, t + 2 * hour, 'other', 'late') });
      attributed = 'late';
    }
    if (i % 900 === 3) {
      lines.push(tag(ref, t - hour, 'early', null));
      attributed = 'early';
    }
    if (i % 700 === 6) {
      later.push({ due: lines.length + 1, line: tag(ref, t + hour, undefined, 'gone') });
      attributed = customer ?? 'gone';
    }
    if (i % 500 === 2) {
      later.push({ due: lines.length + 1, line: tag(ref, t + hour, 'moved', customer ?? null) });
      attributed = customer ?? 'moved';
    }
    later.sort((a, b) => a.due - b.due);
    while (later.length > 0 && later[0]!.due <= lines.length) lines.push(later.shift()!.line);
    if (i % 10_007 === 5) lines.push(JSON.stringify(debit).slice(0, 50));
    debits.push(attributed === customer ? debit : { ...debit, customer: attributed as string });
  }
  for (const l of later) lines.push(l.line);
  return { text: `${lines.join('\n')}\n${JSON.stringify(debits[0]).slice(0, 30)}`, debits };
}

/** The journal file of the account a key speaks for at baseUrl, in a config dir's data dir. */
export function writeJournal(configDir: string, baseUrl: string, apiKey: string, text: string): string {
  const host = new URL(baseUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
  const account = `${host}-${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
  const dir = join(configDir, 'data', 'ledger');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${account}.jsonl`);
  writeFileSync(path, text);
  return path;
}

/** Totals per customer ("(none)" for untagged), in whole cents, as spend --by customer sums them. */
export function totalsByCustomer(debits: readonly Debit[]): Map<string, { count: number; cents: number }> {
  const totals = new Map<string, { count: number; cents: number }>();
  for (const d of debits) {
    const g = totals.get(d.customer ?? '(none)') ?? { count: 0, cents: 0 };
    g.count++;
    g.cents += Math.round(d.priceUsd * 100);
    totals.set(d.customer ?? '(none)', g);
  }
  return totals;
}
