// What the API client tells of each exchange, kept for `spend --reconcile` when it is about money:
// balance reads, charges answered, purchases leaving (src/ledger/sightings.ts says which and why).
// In the account's ledger dir, as ctx.ledger() opens it; any command's client does it, so a
// balance read by `proxyctl account` counts as much as one read by a purchase.
import { join } from 'node:path';
import type { Context } from './types.js';
import type { ApiClient, Exchange } from '../api/client.js';
import { dataDir } from '../config/dirs.js';
import { Journal } from '../ledger/journal.js';
import { recordSighting, sightingOf } from '../ledger/sightings.js';

export function sightings(ctx: Context): (exchange: Exchange, client: ApiClient) => Promise<void> | undefined {
  let journal: Journal | undefined;
  return (exchange, client) => {
    const sighting = sightingOf(exchange);
    if (!sighting) return undefined;
    // The same dir and account as openLedger (context/ledger.ts).
    journal ??= new Journal(join(dataDir(ctx.io.env), 'ledger'), client.accountId());
    return recordSighting(journal, sighting);
  };
}
