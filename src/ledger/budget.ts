// Budgets that hold across processes. A run that will charge first takes a hold: under the
// account's lock it reads what the journal says was spent in the last 24 hours and what the holds
// of other runs may still spend, refuses (exit 12) when its own total does not fit, and otherwise
// records its hold, with the unit refs it is about to extend. Its debits go into the journal as
// they happen, naming the hold; releasing the hold at the end gives back what it did not spend.
// Where holds and debits live is the store's business (store.ts: files on one machine, or a team's
// database); each hold is kept alive by a mark of its store (files: its own lock, refreshed while
// the process runs, stale within 5 seconds; PostgreSQL: its run's own session and lease), and a
// hold whose mark is gone belongs to a run that was killed.
//
// A killed run blocks nobody: its refs are free at once and the lock is never stuck. What it held
// and did not enter is another matter: the purchases or extensions it had on the wire may have gone
// through (a killed process cannot say), so that remainder keeps counting; a budget is never
// exceeded on a guess that they did not. It stops counting, with nothing left to guess, when:
//   - every debit it held for is in the journal (nothing remains): the hold lapses;
//   - its purchase batch is resumed with the same idempotency key: the resumed run takes the dead
//     hold over (heldFor), because a resume replays every purchase the dead run made (the key's
//     window on the server is 24 hours, as long as a hold counts) and enters each one, so nothing
//     the dead run may have bought escapes the journal or the resume's own hold;
//   - 24 hours have passed (the window of the daily budget);
//   - the user drops it (`proxyctl spend holds --drop ID`) after checking what it did: a killed
//     renewal's extensions, say, which only the units' expiries tell and no run here reads.
//
// Two runs that each fit the daily budget alone but not together never both spend: the second
// sees the first's hold. Two overlapping renewals never extend a unit twice: the second sees the
// refs the first holds and leaves them out.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ConflictError, NotFoundError, PolicyError } from '../errors.js';
import type { HoldRecord, HoldStore, HoldsView } from './store.js';

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

const usd = (n: number) => `${(Math.round(n * 100) / 100).toFixed(2)} USD`;

export function hasPolicy(p: SpendPolicy | undefined): p is SpendPolicy {
  return (
    p !== undefined &&
    (p.maxSpendPerRun !== undefined || p.maxSpendPerDay !== undefined || p.allowedPeriods !== undefined || p.allowedCountries !== undefined)
  );
}

/**
 * The policy in a profile's (or, with a shared store, the team's) money settings. A value a hand edit broke is not silently dropped (that would lift a
 * budget): an amount that is not a number counts as 0 (nothing may be spent) and a list that is
 * not strings as empty (nothing is allowed), until `config set` writes it again.
 */
export function policyOf(profile: { readonly [K in keyof SpendPolicy]?: unknown } | undefined): SpendPolicy | undefined {
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

/**
 * How long a run resuming a batch waits for the hold of a run with the same idempotency key to go
 * stale: kill -9 and the resume typed at once, the killed run's lock is still fresh for up to 5 s.
 */
const SAME_KEY_WAIT_MS = LOCK_STALE_MS + 2000;

/** A purchase batch: resuming its key takes over the hold of a killed run with the same key. */
export interface HoldBatch {
  /** The idempotency base key (`--idempotency-key`). */
  key: string;
  /** USD one unit of the batch costs at this run's quote. */
  unitUsd: number;
}

export interface HoldRequest {
  /** The unit refs this run is about to extend (none for purchases). */
  refs?: readonly string[];
  /** USD the run will charge for these refs (called again with the refs left to it). */
  cost: (refs: readonly string[]) => number;
  policy: SpendPolicy | undefined;
  now: Date;
  /** Set for a purchase batch with an idempotency key. */
  batch?: HoldBatch | undefined;
  /** Who is charging (cli, sdk, mcp), shown by `spend holds`. */
  source?: string | undefined;
  /** Told once when the lock is slow to come, or a run with the same key is still seen alive. */
  warn?: (message: string) => void;
}

export interface Hold {
  readonly id: string;
  /** The refs this run may extend: those asked for, less the ones another live run holds. */
  readonly refs: readonly string[];
  /** The refs left out because another run holds them. */
  readonly heldElsewhere: readonly string[];
  /** What the journal says was spent in the last 24 hours, and what other holds may add. */
  readonly spentToday: number;
  readonly heldToday: number;
  /** The holds of killed runs with this batch's key that this run took over. */
  readonly tookOver: readonly string[];
  /** Aborted when the store can no longer show this hold alive (a shared store lost): charge no more. */
  readonly lost?: AbortSignal | undefined;
  /** Gives back what this run did not spend and lets other runs take its refs. Never throws. */
  release(): Promise<void>;
}

/** live: its run is at work; killed: its run's lock went stale; ended: see HoldRecord.endedAt. */
export type HoldState = 'live' | 'killed' | 'ended';

/** One hold as `proxyctl spend holds` shows it. */
export interface HoldInfo {
  id: string;
  state: HoldState;
  /** create: a purchase batch (with its key); extend: a renewal (with its refs); other: `proxyctl api`. */
  operation: 'create' | 'extend' | 'other';
  startedAt: string;
  endedAt: string | undefined;
  /** USD held, what its run entered in the journal, and what it still counts against the day. */
  amountUsd: number;
  enteredUsd: number;
  remainingUsd: number;
  idempotencyKey: string | undefined;
  refs: string[];
  host: string | undefined;
  source: string | undefined;
}

interface Surveyed {
  rec: HoldRecord;
  state: HoldState;
  enteredUsd: number;
  remainingUsd: number;
}

/**
 * Every hold kept, with what its run entered and what it still counts, and what the journal says
 * was spent in the 24 hours before `now`. A hold no run is alive for lapses (comes back in
 * `lapsed`, to be written out of the store) when all it held is entered or it is a day old.
 */
async function survey(view: HoldsView, now: Date): Promise<{ holds: Surveyed[]; lapsed: HoldRecord[]; spentToday: number }> {
  const records = await view.records();
  const { spent: spentToday, enteredBy } = await view.spending(now.getTime() - DAY_MS);
  const holds: Surveyed[] = [];
  const lapsed: HoldRecord[] = [];
  for (const { rec, alive } of records) {
    // A hold may still spend what it held less what its run has already entered.
    const enteredUsd = enteredBy.get(rec.id) ?? 0;
    const remainingUsd = Math.max(0, rec.amountUsd - enteredUsd);
    if (alive && rec.endedAt === undefined) holds.push({ rec, state: 'live', enteredUsd, remainingUsd });
    else if (now.getTime() - Date.parse(rec.at) >= DAY_MS || !(Date.parse(rec.at) > 0) || cents(remainingUsd) <= 0) lapsed.push(rec);
    else holds.push({ rec, state: rec.endedAt === undefined ? 'killed' : 'ended', enteredUsd, remainingUsd });
  }
  return { holds, lapsed, spentToday };
}

/**
 * What a run resuming a purchase batch holds when it takes over the holds of killed runs with its
 * key. A killed run's remainder R covers, at its unit price u, every unit of the batch it was to buy
 * and did not enter: those it bought and recorded but did not enter (the resume replays them first
 * and enters them; its own cost leaves them out, as bought earlier), those it bought or left on the
 * wire without recording them (the resume's cost counts them; the server replays them free) and
 * those never bought (the resume buys them, at its own unit price u'). The resume enters each of
 * them once, at u'. So max(its own cost, R × max(1, u'/u)) covers every debit that can still come
 * from the batch, in money and in the journal's figures alike, while the dead hold counted beside
 * it would count the same units twice (a resume refused on a budget it fits). A remainder of
 * unknown unit price is carried whole: nothing is given up on a guess.
 */
function heldFor(own: number, batch: HoldBatch | undefined, dead: readonly Surveyed[]): number {
  if (!batch || dead.length === 0) return own;
  let scaled = 0;
  let whole = 0;
  for (const h of dead) {
    const u = h.rec.unitUsd;
    if (u !== undefined && u > 0) scaled += h.remainingUsd * Math.max(1, batch.unitUsd / u);
    else whole += h.remainingUsd;
  }
  return Math.max(own, scaled) + whole;
}

const sumRemaining = (hs: readonly Surveyed[]) => hs.reduce((sum, h) => sum + h.remainingUsd, 0);

const WAIT = Symbol('wait');

/**
 * Takes a hold for one run: checks the policy and the daily budget against the journal and every
 * hold that still counts, under the account's lock. Throws PolicyError (exit 12) before anything
 * is charged. A batch resumed with its key takes over the holds of killed runs with that key.
 */
export async function takeHold(store: HoldStore, req: HoldRequest): Promise<Hold> {
  const id = randomUUID();
  // Our own hold's mark first, so from the moment it is recorded it is seen alive.
  const own = await store.keepAlive(id);
  let recorded = false;
  try {
    const waitUntil = Date.now() + SAME_KEY_WAIT_MS;
    const batch = req.batch;
    let told = false;
    for (;;) {
      const result = await store.locked(req.warn, async (view, change) => {
        const { holds, lapsed, spentToday } = await survey(view, req.now);
        const live = holds.filter((h) => h.state === 'live');
        // A run with this key still seen alive is most likely the one just killed, its lock not
        // yet stale: wait for it rather than count its hold beside ours. (Two runs of the same
        // key at once is the one case that waits the whole time, and then counts both.)
        if (batch && Date.now() < waitUntil && live.some((h) => h.rec.key === batch.key)) return WAIT;
        const taken = new Set(live.flatMap((h) => h.rec.refs));
        const asked = req.refs ?? [];
        const refs = asked.filter((r) => !taken.has(r));
        const heldElsewhere = asked.filter((r) => taken.has(r));
        const ownCost = req.cost(refs);
        const takeOver = batch ? holds.filter((h) => h.state !== 'live' && h.rec.key === batch.key) : [];
        const amountUsd = heldFor(ownCost, batch, takeOver);
        const others = holds.filter((h) => !takeOver.includes(h));
        const atWork = sumRemaining(others.filter((h) => h.state === 'live'));
        const dead = sumRemaining(others.filter((h) => h.state !== 'live'));
        const heldToday = atWork + dead;
        const max = req.policy?.maxSpendPerDay;
        if (max !== undefined && amountUsd > 0 && cents(spentToday) + cents(heldToday) + cents(amountUsd) > cents(max)) {
          const carried =
            cents(amountUsd) > cents(ownCost)
              ? ` (and up to ${usd(amountUsd - ownCost)} the killed run with this idempotency key may have charged and not entered)`
              : '';
          const atWorkText = atWork > 0 ? ` and ${usd(atWork)} held by other runs still at work` : '';
          const deadText = dead > 0 ? ` and ${usd(dead)} held by runs that were killed (their purchases may have gone through)` : '';
          throw new PolicyError(
            `this would charge ${usd(ownCost)}${carried}; ${usd(spentToday)} was spent in the last 24 hours${atWorkText}${deadText}, and max-spend-per-day is ${usd(max)}; nothing was charged`,
            {
              code: 'budget_exceeded',
              hint: `${usd(Math.max(0, max - spentToday - heldToday))} is left in the daily budget now${
                dead > 0 ? '; proxyctl spend holds lists the holds of killed runs, and how each stops counting' : ''
              }`,
              leftUsd: Math.max(0, (cents(max) - cents(spentToday) - cents(heldToday)) / 100),
            },
          );
        }
        const mine: HoldRecord = {
          id,
          amountUsd,
          refs: [...refs],
          at: req.now.toISOString(),
          key: batch?.key,
          unitUsd: batch?.unitUsd,
          took: takeOver.length > 0 ? takeOver.map((h) => h.rec.id) : undefined,
          host: hostname(),
          source: req.source,
        };
        const gone = [...lapsed, ...takeOver.map((h) => h.rec)].map((h) => h.id);
        await change({ put: [mine], remove: gone });
        recorded = true;
        return { refs, heldElsewhere, spentToday, heldToday, tookOver: takeOver.map((h) => h.rec.id), gone };
      });
      if (result !== WAIT) {
        await store.forget(result.gone);
        let released = false;
        const { gone: _, ...taken } = result;
        return {
          id,
          ...taken,
          lost: own.lost,
          release: async () => {
            if (released) return;
            released = true;
            await store
              .locked(undefined, async (view, change) => {
                const rec = (await view.records()).find((h) => h.rec.id === id)?.rec;
                // A run that took over a killed run's hold and ends (Ctrl-C, failures) before
                // entering all it holds may leave the killed run's debits unentered: that much stays.
                let left: HoldRecord | undefined;
                if (rec?.took) {
                  const entered = (await view.spending(0)).enteredBy.get(id) ?? 0;
                  if (cents(rec.amountUsd - entered) > 0) left = { ...rec, refs: [], endedAt: new Date().toISOString() };
                }
                await change(left ? { put: [left] } : { remove: [id] });
              })
              .catch(() => undefined);
            await own.release().catch(() => undefined);
          },
        };
      }
      if (!told && batch)
        req.warn?.(`waiting for the run with idempotency key ${batch.key} to end (a killed run's hold goes within 5 seconds)`);
      told = true;
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    if (!recorded) await own.release().catch(() => undefined);
    throw err;
  }
}

function infoOf(h: Surveyed): HoldInfo {
  const round = (n: number) => cents(n) / 100;
  return {
    id: h.rec.id,
    state: h.state,
    operation: h.rec.key !== undefined ? 'create' : h.rec.refs.length > 0 ? 'extend' : 'other',
    startedAt: h.rec.at,
    endedAt: h.rec.endedAt,
    amountUsd: round(h.rec.amountUsd),
    enteredUsd: round(h.enteredUsd),
    remainingUsd: round(h.remainingUsd),
    idempotencyKey: h.rec.key,
    refs: [...h.rec.refs],
    host: h.rec.host,
    source: h.rec.source,
  };
}

/** The holds that count now: those of runs at work, and those of runs gone that have not lapsed. */
export async function listHolds(store: HoldStore, now: Date): Promise<HoldInfo[]> {
  const { holds } = await survey(store.view(), now);
  return holds.map(infoOf);
}

/**
 * Drops the hold `id` of a run that is gone, so it no longer counts against the daily budget
 * (`spend holds --drop`): budget, not money. Exit 5 for no such hold, 8 for a run still at work.
 */
export async function dropHold(store: HoldStore, id: string, now: Date): Promise<HoldInfo> {
  const dropped = await store.locked(undefined, async (view, change) => {
    const { holds, lapsed } = await survey(view, now);
    const h = holds.find((x) => x.rec.id === id);
    if (!h) {
      throw new NotFoundError(`no budget hold ${id} counts now (it ended, lapsed or was never taken); nothing was dropped`, {
        code: 'hold_not_found',
        hint: 'proxyctl spend holds lists the holds that count',
      });
    }
    if (h.state === 'live') {
      throw new ConflictError(`hold ${id} belongs to a run still at work; it is given back when that run ends; nothing was dropped`, {
        code: 'hold_live',
      });
    }
    const gone = [id, ...lapsed.map((x) => x.id)];
    await change({ remove: gone });
    return { info: infoOf(h), gone };
  });
  await store.forget(dropped.gone);
  return dropped.info;
}
