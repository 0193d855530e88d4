// What a run of purchases or extensions cost, told after the fact: the amount from the quoted
// unit price times the items actually charged, and the balance as the API reports it afterwards
// (never computed: when it cannot be read, only the charge is told).
import { readBalance } from '../api/endpoints.js';
import type { ApiClient } from '../api/client.js';
import { cents } from './quote.js';

export interface Charge {
  /** USD charged by this run. */
  amount: number;
  /** The balance read from GET /account after the run; undefined when it could not be read. */
  balanceUsd: number | undefined;
}

/** The charge for `count` items at `unitPrice`, with the balance read back; undefined when nothing was charged. */
export async function settleCharge(api: ApiClient, unitPrice: number, count: number): Promise<Charge | undefined> {
  if (count <= 0) return undefined;
  return { amount: (cents(unitPrice) * count) / 100, balanceUsd: await balanceNow(api) };
}

async function balanceNow(api: ApiClient): Promise<number | undefined> {
  try {
    // Not aborted by Ctrl-C: what was charged before it is still worth telling.
    // shapes.account guarantees a finite balanceUsd.
    return await readBalance(api, { signal: null });
  } catch {
    return undefined;
  }
}
