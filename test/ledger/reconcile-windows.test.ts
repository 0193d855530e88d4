// The reconciliation by time, on readings and debits whose windows overlap as parallel runs make
// them: what the old order-by-one-time-stamp reading turned into a +X/−X pair is explained, and a
// real gap is reported once, where it first shows, with its amount.
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/ledger/journal.js';
import { reconcile } from '../../src/ledger/reconcile.js';
import type { Reading, Sightings, Window } from '../../src/ledger/sightings.js';

const T0 = Date.parse('2026-11-01T10:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const reading = (from: number, to: number, balanceUsd: number): Reading => ({ at: iso(to), from: T0 + from, to: T0 + to, balanceUsd });

/** A debit seen answered in [from, to] (entered at `entered`, later). */
function debit(ref: string, priceUsd: number, from: number, to: number, entered = to + 50) {
  const entry: LedgerEntry = { id: `create:${ref}`, at: iso(entered), source: 'cli', operation: 'create', ref, priceUsd };
  return { entry, window: { from: T0 + from, to: T0 + to } satisfies Window };
}

function run(readings: Reading[], debits: ReturnType<typeof debit>[], sending = new Map<string, number>()) {
  const s: Sightings = { readings, charged: new Map(debits.map((d) => [d.entry.id, d.window])), sending };
  return reconcile(
    debits.map((d) => d.entry),
    s,
  );
}

describe('reconcile by time', () => {
  it("a run's reading taken while another run's debit was on its way explains it, whichever way it fell", () => {
    // B's purchase was debited before A read the balance, but its answer came after A's.
    const readings = [reading(0, 1, 100), reading(10, 12, 95), reading(21, 22, 90)];
    expect(run(readings, [debit('PRX-1', 5, 5, 20), debit('PRX-2', 5, 13, 15)])).toEqual([]);
    // The same windows, B's debit made after A's read this time.
    const later = [reading(0, 1, 100), reading(10, 12, 100), reading(21, 22, 90)];
    expect(run(later, [debit('PRX-1', 5, 5, 20), debit('PRX-2', 5, 13, 15)])).toEqual([]);
  });

  it('a purchase made elsewhere among uncertain debits is reported once, in the stretch where it shows', () => {
    const readings = [reading(0, 1, 100), reading(10, 12, 92), reading(30, 31, 87), reading(40, 41, 87)];
    const gaps = run(readings, [debit('PRX-1', 5, 5, 20), debit('PRX-2', 5, 25, 28)]);
    expect(gaps).toEqual([{ from: iso(1), to: iso(12), balanceBefore: 100, balanceAfter: 92, debitedUsd: 5, unexplainedUsd: 3 }]);
  });

  it('a top-up is one negative gap', () => {
    const readings = [reading(0, 1, 100), reading(10, 11, 95), reading(20, 21, 145), reading(30, 31, 140)];
    const gaps = run(readings, [debit('PRX-1', 5, 3, 4), debit('PRX-2', 5, 24, 26)]);
    expect(gaps).toEqual([{ from: iso(11), to: iso(21), balanceBefore: 95, balanceAfter: 145, debitedUsd: 0, unexplainedUsd: -50 }]);
  });

  it('a debit entered by the run that resumed a killed batch counts from when its purchase first left', () => {
    // Bought at 5 by a run killed before it entered it; a purchase elsewhere (3) at 15; read at 20;
    // the resumed run replays it and enters it at 40, after reading the balance at 30.
    const resumed = debit('PRX-1', 5, 0, 0, 40);
    resumed.entry.idempotencyKey = 'k1';
    const readings = [reading(0, 1, 100), reading(19, 20, 92), reading(29, 30, 92), reading(50, 51, 92)];
    const gaps = run(readings, [], new Map([['k1', T0 + 2]]));
    expect(gaps.map((g) => g.unexplainedUsd)).toEqual([8]); // without the entry: all 8 unexplained
    const s: Sightings = { readings, charged: new Map(), sending: new Map([['k1', T0 + 2]]) };
    expect(reconcile([resumed.entry], s)).toEqual([
      { from: iso(1), to: iso(20), balanceBefore: 100, balanceAfter: 92, debitedUsd: 5, unexplainedUsd: 3 },
    ]);
  });
});
