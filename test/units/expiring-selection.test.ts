// The selection rules of `units extend --expiring-within` in-process (src/units/select.ts): what
// is asked of the server, what is kept of its answer, and how the batch is described.
import { describe, expect, it } from 'vitest';
import {
  collectExpiring,
  collectSelection,
  describeSelection,
  expiringQuery,
  nothingExpiring,
  nothingSelected,
  poolsByRef,
  selectionQuery,
  type ExpiringCriteria,
} from '../../src/units/select.js';
import type { Unit } from '../../src/units/types.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

async function* listed(...pages: Unit[][]): AsyncIterable<Unit> {
  for (const page of pages) yield* page;
}

const unit = (proxyRef: string, fields: Partial<Unit> = {}): Unit => ({ proxyRef, status: 'ACTIVE', expiresIn: 3600, ...fields }) as Unit;

describe('the expiring selection', () => {
  const c: ExpiringCriteria = { hours: 24, poolId: 'US-12', text: 'Acme' };

  it('asks the server for the active units of the pool expiring within the hours, a full page at a time', () => {
    expect(expiringQuery(c)).toEqual({ status: 'ACTIVE', poolId: 'US-12', expiringWithinHours: 24, pageSize: 200 });
    expect(expiringQuery({ hours: 1 })).toEqual({ status: 'ACTIVE', poolId: undefined, expiringWithinHours: 1, pageSize: 200 });
  });

  it('keeps what is due and matches the description, once per ref', async () => {
    const units = await collectExpiring(
      listed(
        [
          unit('PRX-1', { description: 'for ACME corp' }),
          unit('PRX-2', { description: 'other' }),
          unit('PRX-3', { description: 'acme', expiresIn: 25 * 3600 }),
          unit('PRX-4', { description: 'acme', status: 'EXPIRED' }),
        ],
        [
          unit('PRX-1', { description: 'acme, listed again' }),
          unit('PRX-5', { description: 'acme', expiresIn: undefined, expiresAt: '2030-01-01T12:00:00Z' }),
          unit('PRX-6', { description: 'acme', expiresIn: 0 }),
          unit('PRX-7'),
        ],
      ),
      c,
      NOW,
    );
    expect([...units.keys()]).toEqual(['PRX-1', 'PRX-5']);
    // The first listing of a ref is the one kept.
    expect(units.get('PRX-1')?.description).toBe('for ACME corp');
  });

  it('without --description-contains every due unit is kept', async () => {
    const units = await collectExpiring(listed([unit('PRX-1'), unit('PRX-2', { description: 'x' })]), { hours: 1 }, NOW);
    expect([...units.keys()]).toEqual(['PRX-1', 'PRX-2']);
  });

  it('describes the batch with its first refs, and an empty one', () => {
    expect(describeSelection(['PRX-1'], { hours: 24 })).toBe('1 unit expiring within 24 h (PRX-1)');
    expect(describeSelection(['A', 'B', 'C', 'D', 'E', 'F', 'G'], c)).toBe(
      '7 units expiring within 24 h in pool US-12 whose description contains "Acme" (A, B, C, D, E and 2 more)',
    );
    expect(nothingExpiring({ hours: 48 })).toBe('No active units expire within 48 h; nothing was extended.');
    expect(nothingExpiring(c)).toBe(
      'No active units expire within 24 h in pool US-12 with "Acme" in their description; nothing was extended.',
    );
  });

  it('a customer is its exact tag, in any case; a description text is a substring', async () => {
    const fleet = () =>
      listed([
        unit('PRX-1', { description: 'customer=acme' }),
        unit('PRX-2', { description: 'vip customer=ACME' }),
        unit('PRX-3', { description: 'customer=acme-corp' }),
        unit('PRX-4', { description: 'customer=acmeX' }),
        unit('PRX-5', { description: 'customer=acme', status: 'RELEASED' }),
      ]);
    expect([...(await collectSelection(fleet(), { customer: 'acme' }, NOW)).keys()]).toEqual(['PRX-1', 'PRX-2']);
    expect([...(await collectSelection(fleet(), { text: 'customer=acme' }, NOW)).keys()]).toEqual(['PRX-1', 'PRX-2', 'PRX-3', 'PRX-4']);
    expect(selectionQuery({ customer: 'acme' })).toEqual({
      status: 'ACTIVE',
      poolId: undefined,
      expiringWithinHours: undefined,
      pageSize: 200,
    });
    expect(describeSelection(['PRX-1'], { hours: 24, customer: 'acme' })).toBe('1 unit expiring within 24 h tagged customer=acme (PRX-1)');
    expect(nothingSelected({ customer: 'acme' }, 'released')).toBe('No active units tagged customer=acme; nothing was released.');
  });

  it('maps each ref to its pool where the unit names one', () => {
    const units = new Map([
      ['PRX-1', unit('PRX-1', { poolId: 'US-12' })],
      ['PRX-2', unit('PRX-2')],
    ]);
    expect(poolsByRef(units)).toEqual(new Map([['PRX-1', 'US-12']]));
  });
});
