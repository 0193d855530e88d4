// Budgets that hold across processes. A run that will charge first takes a hold: under the
// account's lock it reads what the journal says was spent in the last 24 hours and what live holds
// of other runs may still spend, refuses (exit 12) when its own total does not fit, and otherwise
// records its hold, with the unit refs it is about to extend. Its debits go into the journal as
// they happen; releasing the hold at the end gives back what it did not spend. Each hold is kept
// alive by its own proper-lockfile lock (refreshed while the process runs): a hold whose lock went
// stale belongs to a process that was killed. Its refs are free at once (nothing is waiting on a
// dead run), but what it held and did not enter still counts against the day for 24 hours: the
// purchases it had on the wire may have gone through, and a budget is never exceeded on a guess.
//
// Two runs that each fit the daily budget alone but not together never both spend: the second
// sees the first's hold. Two overlapping renewals never extend a unit twice: the second sees the
// refs the first holds and leaves them out.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PolicyError, UsageError } from '../errors.js';
import type { Journal } from './journal.js';

/** A profile's spending rules (`config set max-spend-per-run …`); the SDK takes the same object. */
export interface SpendPolicy {
  /** USD one command may charge in total. */
  maxSpendPerRun?: number | undefined;
  /** USD all runs together may charge in any 24 hours (a rolling window, not a calendar day). */
  maxSpendPerDay?: number | undefined;
  /** Periods a purchase or extension may use (e.g. 7d, 30d). */
  allowedPeriods?: readonly string[] | undefined;
  /** Countries (ISO codes) units may be bought in. */
  allowedCountries?: readonly string[] | undefined;
}

export const DAY_MS = 24 * 3600 * 1000;
const LOCK_STALE_MS = 5000;
const LOCK_WAIT_MS = 30_000;

const usd = (n: number) => `${(Math.round(n * 100) / 100).toFixed(2)} USD`;

export function hasPolicy(p: SpendPolicy | undefined): p is SpendPolicy {
  return (
    p !== undefined &&
    (p.maxSpendPerRun !== undefined || p.maxSpendPerDay !== undefined || p.allowedPeriods !== undefined || p.allowedCountries !== undefined)
  );
}

/** The rules that need no shared state: per run, periods, countries. Throws PolicyError (exit 12). */
export function checkPolicy(
  policy: SpendPolicy | undefined,
  what: { amountUsd: number; period?: string | undefined; countries?: readonly string[] },
): void {
  if (!policy) return;
  if (what.period !== undefined && policy.allowedPeriods && !policy.allowedPeriods.includes(what.period)) {
    throw new PolicyError(
      `period ${what.period} is not allowed by this profile's policy (allowed-periods: ${policy.allowedPeriods.join(', ')})`,
      {
        code: 'period_not_allowed',
      },
    );
  }
  const allowed = policy.allowedCountries?.map((c) => c.toUpperCase());
  for (const c of what.countries ?? []) {
    if (allowed && !allowed.includes(c.toUpperCase())) {
      throw new PolicyError(`country ${c} is not allowed by this profile's policy (allowed-countries: ${allowed.join(', ')})`, {
        code: 'country_not_allowed',
      });
    }
  }
  if (policy.maxSpendPerRun !== undefined && cents(what.amountUsd) > cents(policy.maxSpendPerRun)) {
    throw new PolicyError(
      `this would charge ${usd(what.amountUsd)}, more than max-spend-per-run (${usd(policy.maxSpendPerRun)}); nothing was charged`,
      {
        code: 'budget_exceeded',
      },
    );
  }
}

const cents = (n: number) => Math.round(n * 100);

interface HoldRecord {
  id: string;
  amountUsd: number;
  refs: string[];
  at: string;
}

interface HoldsFile {
  holds: HoldRecord[];
}

export interface HoldRequest {
  /** The unit refs this run is about to extend (none for purchases). */
  refs?: readonly string[];
  /** USD the run will charge for these refs (called again with the refs left to it). */
  cost: (refs: readonly string[]) => number;
  policy: SpendPolicy | undefined;
  now: Date;
  /** Told once when the lock is slow to come. */
  warn?: (message: string) => void;
}

export interface Hold {
  readonly id: string;
  /** The refs this run may extend: those asked for, less the ones another live run holds. */
  readonly refs: readonly string[];
  /** The refs left out because another run holds them. */
  readonly heldElsewhere: readonly string[];
  /** What the journal says was spent in the last 24 hours, and what other live holds may add. */
  readonly spentToday: number;
  readonly heldToday: number;
  /** Gives back what this run did not spend and lets other runs take its refs. Never throws. */
  release(): Promise<void>;
}

/**
 * Takes a hold for one run: checks the policy and the daily budget against the journal and every
 * live hold, under the account's lock. Throws PolicyError (exit 12) before anything is charged.
 */
export async function takeHold(journal: Journal, req: HoldRequest): Promise<Hold> {
  const { default: lockfile } = await import('proper-lockfile');
  await mkdir(journal.dir, { recursive: true, mode: 0o700 });
  const holdsPath = join(journal.dir, `${journal.account}.holds.json`);
  const id = randomUUID();
  const ownLock = join(journal.dir, `${journal.account}.hold-${id}`);
  // Our own hold's lock first, so from the moment it is recorded it is seen alive.
  const releaseOwn = await lockfile.lock(ownLock, { realpath: false, stale: LOCK_STALE_MS, update: 1000, onCompromised: () => undefined });
  let recorded = false;
  try {
    const result = await underLock(lockfile, holdsPath, req.warn, async (write) => {
      const file = await readHolds(holdsPath);
      const live: HoldRecord[] = [];
      const killed: HoldRecord[] = [];
      for (const h of file.holds) {
        const alive = await lockfile
          .check(join(journal.dir, `${journal.account}.hold-${h.id}`), { realpath: false, stale: LOCK_STALE_MS })
          .catch(() => false);
        if (alive) live.push(h);
        else if (req.now.getTime() - Date.parse(h.at) < DAY_MS) killed.push(h);
      }
      const taken = new Set(live.flatMap((h) => h.refs));
      const asked = req.refs ?? [];
      const refs = asked.filter((r) => !taken.has(r));
      const heldElsewhere = asked.filter((r) => taken.has(r));
      const amountUsd = req.cost(refs);
      const since = req.now.getTime() - DAY_MS;
      const entries = await journal.read();
      const spentToday = entries.reduce((sum, e) => (Date.parse(e.at) > since ? sum + e.priceUsd : sum), 0);
      // A live hold may still spend what it held less what it has already entered.
      const enteredBy = new Map<string, number>();
      for (const e of entries) if (e.hold) enteredBy.set(e.hold, (enteredBy.get(e.hold) ?? 0) + e.priceUsd);
      const remainder = (hs: HoldRecord[]) => hs.reduce((sum, h) => sum + Math.max(0, h.amountUsd - (enteredBy.get(h.id) ?? 0)), 0);
      const heldToday = remainder(live) + remainder(killed);
      const max = req.policy?.maxSpendPerDay;
      if (max !== undefined && amountUsd > 0 && cents(spentToday) + cents(heldToday) + cents(amountUsd) > cents(max)) {
        const atWork = remainder(live) > 0 ? ` and ${usd(remainder(live))} held by other runs still at work` : '';
        const dead =
          remainder(killed) > 0
            ? ` and ${usd(remainder(killed))} held by runs that were killed (their purchases may have gone through)`
            : '';
        throw new PolicyError(
          `this would charge ${usd(amountUsd)}; ${usd(spentToday)} was spent in the last 24 hours${atWork}${dead}, and max-spend-per-day is ${usd(max)}; nothing was charged`,
          {
            code: 'budget_exceeded',
            hint: `${usd(Math.max(0, max - spentToday - heldToday))} is left in the daily budget now`,
            leftUsd: Math.max(0, (cents(max) - cents(spentToday) - cents(heldToday)) / 100),
          },
        );
      }
      await write({ holds: [...live, ...killed, { id, amountUsd, refs: [...refs], at: req.now.toISOString() }] });
      recorded = true;
      return { refs, heldElsewhere, spentToday, heldToday };
    });
    let released = false;
    return {
      id,
      ...result,
      release: async () => {
        if (released) return;
        released = true;
        await underLock(lockfile, holdsPath, undefined, async (write) => {
          const file = await readHolds(holdsPath);
          await write({ holds: file.holds.filter((h) => h.id !== id) });
        }).catch(() => undefined);
        await releaseOwn().catch(() => undefined);
        await rm(ownLock, { recursive: true, force: true }).catch(() => undefined);
      },
    };
  } catch (err) {
    if (!recorded) {
      await releaseOwn().catch(() => undefined);
      await rm(ownLock, { recursive: true, force: true }).catch(() => undefined);
    }
    throw err;
  }
}

async function readHolds(path: string): Promise<HoldsFile> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as Partial<HoldsFile>;
    return { holds: Array.isArray(v.holds) ? v.holds.filter((h) => h && typeof h.id === 'string') : [] };
  } catch {
    return { holds: [] };
  }
}

type Lockfile = typeof import('proper-lockfile');

async function underLock<T>(
  lockfile: Lockfile,
  path: string,
  warn: ((message: string) => void) | undefined,
  fn: (write: (data: HoldsFile) => Promise<void>) => Promise<T>,
): Promise<T> {
  const { default: writeFileAtomic } = await import('write-file-atomic');
  const waiting = warn
    ? setTimeout(() => warn(`waiting for the budget lock ${path}: another proxyctl run is taking its hold`), 5000)
    : undefined;
  waiting?.unref();
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: { retries: 10_000, factor: 1.5, minTimeout: 15, maxTimeout: 250, randomize: true, maxRetryTime: LOCK_WAIT_MS },
      onCompromised: () => undefined,
    });
  } catch (err) {
    throw new UsageError(`cannot take the budget lock ${path}: ${(err as Error).message}; nothing was charged`, { code: 'budget_locked' });
  } finally {
    if (waiting) clearTimeout(waiting);
  }
  try {
    return await fn((data) => writeFileAtomic(path, `${JSON.stringify(data)}\n`, { mode: 0o600 }));
  } finally {
    await release().catch(() => undefined);
  }
}
