// Moving a unit to another pool, for every front door (`units swap`, the agent's swap_unit): free,
// but it moves the unit, so the profile's allowed-countries hold for the pool it moves to, as they
// do for a purchase (exit 12 before anything is sent).
import { getPool, getUnit, listPools, swapUnitTo } from '../api/endpoints.js';
import type { ApiClient } from '../api/client.js';
import { NotFoundError } from '../errors.js';
import { checkPolicy, countryOfPool, policyNow, type Ledger } from '../ledger/index.js';
import { escapeControl } from '../output/index.js';
import { explainingMiss, poolMiss } from './catalogue-ids.js';
import { describeChoice, pickSameCountry } from './same-country.js';
import type { Pool, Unit } from './types.js';

/** Refuses (exit 12) a move into a country the profile's policy does not allow. */
export async function assertMayMoveTo(ledger: Ledger | undefined, newPoolId: string): Promise<void> {
  const country = countryOfPool(newPoolId);
  checkPolicy(await policyNow(ledger), { amountUsd: 0, countries: country ? [country] : [] });
}

export async function swapUnit(api: ApiClient, ledger: Ledger | undefined, ref: string, newPoolId: string): Promise<Unit> {
  await assertMayMoveTo(ledger, newPoolId);
  // A second swap would move the unit again, so only a request that never left is retried.
  const res = await explainingMiss(
    () => swapUnitTo(api, ref, newPoolId),
    () => poolMiss(api, newPoolId, true),
  );
  // The swap answer has no status or country: the unit read back fills them in (its own fields
  // win only where the swap answer is silent). If that read fails, they are left out, not shown as "-".
  const back = await getUnit(api, ref).catch(() => undefined);
  return back ? { ...back, ...res.data } : res.data;
}

/** The unit before it moves, for its old address; a failed read only leaves that out (the swap decides). */
export async function readBefore(api: ApiClient, ref: string): Promise<Unit | undefined> {
  return getUnit(api, ref).catch(() => undefined);
}

export function addressOf(u: Unit | undefined): string | undefined {
  if (!u || typeof u.ip !== 'string' || (typeof u.port !== 'number' && typeof u.port !== 'string')) return undefined;
  return `${u.ip}:${u.port}`;
}

/**
 * What the reseller has to pass on after a swap, said on stderr: "PRX-7 moved to GB-12: address
 * 203.0.113.5:10001 → 198.51.100.9:10044", whether the login changed too, or that it stays.
 */
export function describeMove(ref: string, before: Unit | undefined, after: Unit): string {
  const [was, now] = [addressOf(before), addressOf(after)];
  const where = `${ref} moved${after.poolId ? ` to ${after.poolId}` : ''}`;
  const login = (u: Unit | undefined) => (u?.credentials ? `${u.credentials.username}:${u.credentials.password}` : undefined);
  const relogin = before !== undefined && login(before) !== login(after) ? '; new username and password' : '';
  const text =
    now === undefined
      ? `${where}; the answer gave no address: proxyctl units get ${ref} -o conn`
      : was === undefined
        ? `${where}: address now ${now} (the old one could not be read)`
        : was === now
          ? `${where}; the address stays ${now}`
          : `${where}: address changed ${was} → ${now}`;
  return escapeControl(`${text}${relogin}`);
}

/**
 * --same-country: the unit and the pools of its country are read, the best one picked
 * (src/units/same-country.ts) and named through `notice`. None available is exit 5, naming the
 * country: the input was fine, what is missing is a pool on the server (like a swap to an unknown pool, 404).
 */
export async function sameCountryPool(
  api: ApiClient,
  ref: string,
  known: Unit | undefined,
  told: { seen?: (pools: readonly Pool[]) => Promise<void>; notice?: (text: string) => void } = {},
): Promise<string> {
  const unit = known ?? (await getUnit(api, ref));
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  let from = { poolId: unit.poolId, country: text(unit.country), state: text(unit.state), provider: unit.provider };
  if (!from.country && unit.poolId) {
    // A unit without its placement: its pool says where it is.
    const own = await getPool(api, unit.poolId);
    from = { ...from, country: own.country, state: text(own.state), provider: from.provider ?? own.provider };
  }
  const country = from.country;
  if (!country)
    throw new NotFoundError(`cannot tell which country ${ref} is in`, { code: 'country_unknown', hint: 'pick one with --pool' });
  const pools = (await listPools(api, { country })).data;
  await told.seen?.(pools);
  const to = pickSameCountry({ ...from, country }, pools);
  if (!to)
    throw new NotFoundError(`no other available pool in ${country} to swap ${ref} to`, {
      code: 'no_pool_available',
      hint: `see proxyctl pools --country ${country}, or pick one elsewhere with --pool`,
    });
  told.notice?.(escapeControl(`swapping ${ref} from ${from.poolId ?? '?'} to ${to.poolId} (${describeChoice(to)})`));
  return to.poolId;
}
