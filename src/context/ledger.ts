// ctx.ledger(): the journal of the account the command's API client speaks for, in the data dir,
// with the spending policy of the profile in use (`config set max-spend-per-day …`).
import { join } from 'node:path';
import type { Context } from './types.js';
import { dataDir } from '../config/dirs.js';
import { hasPolicy, Journal, type Ledger, type SpendPolicy } from '../ledger/index.js';
import type { Profile } from '../config/store.js';
import { profileInUse } from './credentials.js';

/**
 * The profile's policy. A value a hand edit broke is not silently dropped (that would lift a
 * budget): an amount that is not a number counts as 0 (nothing may be spent) and a list that is
 * not strings as empty (nothing is allowed), until `config set` writes it again.
 */
export function policyOf(profile: Profile | undefined): SpendPolicy | undefined {
  if (!profile) return undefined;
  const amount = (v: unknown) => (v === undefined ? undefined : typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  const strings = (v: unknown) =>
    v === undefined ? undefined : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  const policy = {
    maxSpendPerRun: amount(profile.maxSpendPerRun),
    maxSpendPerDay: amount(profile.maxSpendPerDay),
    allowedPeriods: strings(profile.allowedPeriods),
    allowedCountries: strings(profile.allowedCountries),
  };
  return hasPolicy(policy) ? policy : undefined;
}

export async function openLedger(ctx: Context): Promise<Ledger> {
  const [api, store] = await Promise.all([ctx.api(), ctx.config()]);
  const profile = profileInUse(ctx, store);
  return {
    journal: new Journal(join(dataDir(ctx.io.env), 'ledger'), api.accountId()),
    source: 'cli',
    profile,
    policy: policyOf(store.profile(profile)),
    // Every check reads the file again: a budget lowered while a run or a server is at work holds
    // from its next charge on.
    readPolicy: () => policyOf(store.profileNow(profile)),
    warn: (m) => ctx.warn(m),
    now: ctx.now,
  };
}
