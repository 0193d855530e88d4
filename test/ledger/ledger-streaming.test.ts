// spend and status over a long ledger (issue 33): they stream the journal (JournalStore.pages)
// rather than read it whole, so a 100,000-entry journal (~25 MB, several hundred MB once parsed as
// read() holds it) is summed and listed within a 48 MB V8 old space, with exactly what read() gives:
// a debit's lines merged (the run's and the webhook's, whichever came first, a replay), untagged
// debits given to the customer tagged later, retagging leaving past debits, lines cut by a kill
// skipped, and the order of each debit's first line.
import { afterEach, describe, expect, it } from 'vitest';
import { type Kit, startKit } from '../helpers/index.js';
import { type Debit, longJournal, totalsByCustomer, writeJournal } from './long-journal.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const N = 100_000;
const HEAP = { NODE_OPTIONS: '--max-old-space-size=48' };

describe('spend and status over a 100,000-entry ledger', { timeout: 180_000 }, () => {
  it('list, group and sum it in a 48 MB heap, each debit once, merged and attributed as read() does', async () => {
    kit = await startKit({ balance: 1000 });
    const k = kit;
    const { text, debits } = longJournal(N, Date.now());
    writeJournal(k.home.configDir, k.sb.baseUrl, k.sb.apiKey, text);
    const totals = totalsByCustomer(debits);
    const names = [...totals.keys()].filter((n) => n !== '(none)').sort();
    const all = [...totals.values()].reduce((s, g) => s + g.cents, 0) / 100;

    // Every debit, whole, in order.
    const listed = await k.run(['spend', '--json'], { env: HEAP });
    expect(listed.exitCode, String(listed.stderr)).toBe(0);
    expect(JSON.parse(String(listed.stdout)) as Debit[]).toEqual(debits);
    expect(String(listed.stderr)).toContain(`Total: ${all.toFixed(2)} USD over ${N} debit(s).`);

    const by = await k.run(['spend', '--by', 'customer', '--json'], { env: HEAP });
    expect(by.exitCode, String(by.stderr)).toBe(0);
    expect(JSON.parse(String(by.stdout))).toEqual(
      [...names, '(none)'].map((group) => ({
        group,
        count: totals.get(group)!.count,
        created: totals.get(group)!.count,
        extended: 0,
        totalUsd: totals.get(group)!.cents / 100,
      })),
    );
    expect(String(by.stderr)).toContain(`Total: ${all.toFixed(2)} USD over ${N} debit(s).`);

    // A window: the last few (the whole journal is still read), as jsonl.
    const tail = await k.run(['spend', '-o', 'jsonl', '--since', debits[N - 4]!.at], { env: HEAP });
    expect(tail.exitCode, String(tail.stderr)).toBe(0);
    expect(
      String(tail.stdout)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(debits.slice(N - 4));

    const status = await k.run(['status', '--json'], { env: HEAP });
    expect(status.exitCode, String(status.stderr)).toBe(0);
    expect(JSON.parse(String(status.stdout)).customers).toEqual(
      names
        .map((customer) => ({ customer, activeUnits: 0, spentLast30DaysUsd: totals.get(customer)!.cents / 100 }))
        .sort((a, b) => b.spentLast30DaysUsd - a.spentLast30DaysUsd || a.customer.localeCompare(b.customer)),
    );
  });
});
