import type { Context } from './types.js';
import type { ApiClient, Exchange } from '../api/client.js';
import { ledgerDir } from '../config/dirs.js';
import { Journal } from '../ledger/journal.js';
import { recordSighting, sightingOf } from '../ledger/sightings.js';

export function sightings(ctx: Context): (exchange: Exchange, client: ApiClient) => Promise<void> | undefined {
  let journal: Journal | undefined;
  return (exchange, client) => {
    const sighting = sightingOf(exchange);
    if (!sighting) return undefined;
    // The same dir and account as openLedger (context/ledger.ts).
    journal ??= new Journal(ledgerDir(ctx.io.env), client.accountId());
    return recordSighting(journal, sighting);
  };
}
