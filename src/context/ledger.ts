// ctx.ledger(): the journal of the account the command's API client speaks for, in the data dir,
// with the spending policy of the profile in use (`config set max-spend-per-day …`).
import type { Context } from './types.js';
import { dataDir } from '../config/dirs.js';
import { join } from 'node:path';
import { hasPolicy, Journal, type Ledger, type SpendPolicy } from '../ledger/index.js';
import type { Profile } from '../config/store.js';
import { profileInUse } from './credentials.js';

export function policyOf(profile: Profile | undefined): SpendPolicy | undefined {
  if (!profile) return undefined;
  const { maxSpendPerRun, maxSpendPerDay, allowedPeriods, allowedCountries } = profile;
  if (maxSpendPerRun === undefined && maxSpendPerDay === undefined && allowedPeriods === undefined && allowedCountries === undefined)
    return undefined;
  return { maxSpendPerRun, maxSpendPerDay, allowedPeriods, allowedCountries };
}

export async function openLedger(ctx: Context): Promise<Ledger> {
  const [api, store] = await Promise.all([ctx.api(), ctx.config()]);
  const profile = profileInUse(ctx, store);
  return {
    journal: new Journal(join(dataDir(ctx.io.env), 'ledger'), api.accountId()),
    source: 'cli',
    profile,
    policy: policyOf(store.profile(profile)),
    warn: (m) => ctx.warn(m),
    now: ctx.now,
  };
}
