// `units swap REF --pool NEW`: free, keeps the remaining time; prints the new connection.
import { show, type Result } from '../../kit/action.js';
import type { Input } from './swap.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { escapeControl, type View } from '../../output/index.js';
import { connFormatFor } from '../../output/conn.js';
import type { Unit } from '../../units/types.js';
import { catalogueSeen, remember, unitsSeen } from '../../kit/remember.js';
import { explainingMiss, normalisePoolId, poolMiss } from '../../units/catalogue-ids.js';
import { parseRef } from '../../units/validate.js';
import { changedUnitView, unitDetailView } from '../../units/view.js';
import * as shapes from '../../api/shapes.js';
import { askForMissing, poolChoice, poolWhere } from './ask.js';
import { NotFoundError } from '../../errors.js';
import { describeChoice, pickSameCountry } from '../../units/same-country.js';

export async function swapUnit(ref: string, newPoolId: string, ctx: Context): Promise<Unit> {
  const api = await ctx.api();
  // A second swap would move the unit again, so only a request that never left is retried.
  const res = await explainingMiss(
    () => api.request('POST', `/units/${encodeURIComponent(ref)}/swap`, shapes.unit, { body: { newPoolId }, retry: 'not-sent' }),
    () => poolMiss(api, newPoolId, true),
  );
  // The swap answer has no status or country: the unit read back fills them in (its own fields
  // win only where the swap answer is silent). If that read fails, they are left out, not shown as "-".
  const back = await api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit).catch(() => undefined);
  return back ? { ...back, ...res.data } : res.data;
}

/** The detail view without the rows a unit lacks (`status -` says nothing). */
function viewOf(unit: Unit): View<Unit> {
  const absent = new Set(['status', 'country'].filter((k) => unit[k] === undefined));
  const view = changedUnitView(unitDetailView);
  return { ...view, columns: view.columns?.filter((c) => !absent.has(c.header)) };
}

/** The unit before it moves, for its old address; a failed read only leaves that out (the swap decides). */
export async function readBefore(ref: string, ctx: Context): Promise<Unit | undefined> {
  const api = await ctx.api();
  return api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit).catch(() => undefined);
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

/** No --pool: chosen in a terminal from the catalogue, the unit's own country first; else exit 2. */
async function askPool(ref: string, ctx: Context): Promise<{ pool: string; unit: Unit }> {
  const { select } = await askForMissing(ctx, '--pool', {
    what: 'the new pool id; see proxyctl pools',
    example: `proxyctl units swap ${ref} --pool US-14`,
    cancelled: 'cancelled; nothing was swapped',
  });
  const api = await ctx.api();
  const unit = (await api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit)) as Unit & { country?: string };
  const catalogue = (await api.get('/pools', shapes.poolList)).data;
  await remember(ctx, catalogueSeen(catalogue));
  const pools = catalogue.filter((p) => p.poolId !== unit.poolId);
  if (pools.length === 0) throw new UsageError('the server lists no other pool to swap to');
  const home = pools.filter((p) => p.country === unit.country);
  const rest = pools.filter((p) => p.country !== unit.country);
  const pool = await select({
    message: escapeControl(`Swap ${ref} (now ${[unit.poolId, unit.country].filter(Boolean).join(', ')}) to pool`),
    pageSize: 15,
    choices: [...home, ...rest].map((p) => poolChoice(p, `${p.poolId}  ${poolWhere(p)}`)),
  });
  return { pool, unit };
}

/**
 * --same-country: the unit and the pools of its country are read, the best one picked
 * (src/units/same-country.ts) and named on stderr. None available is exit 5, naming the country:
 * the input was fine, what is missing is a pool on the server (like a swap to an unknown pool, 404).
 */
export async function sameCountryPool(ref: string, ctx: Context, known?: Unit): Promise<string> {
  const api = await ctx.api();
  const unit = known ?? (await api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit));
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  let from = { poolId: unit.poolId, country: text(unit.country), state: text(unit.state), provider: unit.provider };
  if (!from.country && unit.poolId) {
    // A unit without its placement: its pool says where it is.
    const own = await api.get(`/pools/${encodeURIComponent(unit.poolId)}`, shapes.pool);
    from = { ...from, country: own.country, state: text(own.state), provider: from.provider ?? own.provider };
  }
  const country = from.country;
  if (!country)
    throw new NotFoundError(`cannot tell which country ${ref} is in`, { code: 'country_unknown', hint: 'pick one with --pool' });
  const pools = (await api.get('/pools', shapes.poolList, { country })).data;
  await remember(ctx, catalogueSeen(pools));
  const to = pickSameCountry({ ...from, country }, pools);
  if (!to)
    throw new NotFoundError(`no other available pool in ${country} to swap ${ref} to`, {
      code: 'no_pool_available',
      hint: `see proxyctl pools --country ${country}, or pick one elsewhere with --pool`,
    });
  ctx.notice(escapeControl(`swapping ${ref} from ${from.poolId ?? '?'} to ${to.poolId} (${describeChoice(to)})`));
  return to.poolId;
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const conn = connFormatFor(ctx, flags.connFormat);
  const ref = parseRef(raw);
  if (flags.sameCountry && flags.pool !== undefined) throw new UsageError('--same-country picks the pool itself; leave out --pool');
  let pool: string;
  let before: Unit | undefined;
  if (flags.sameCountry) {
    before = await readBefore(ref, ctx);
    pool = await sameCountryPool(ref, ctx, before);
  } else if (flags.pool === undefined) {
    ({ pool, unit: before } = await askPool(ref, ctx));
  } else {
    pool = normalisePoolId(flags.pool);
    if (!pool) throw new UsageError('--pool needs the new pool id (see proxyctl pools)');
    before = await readBefore(ref, ctx);
  }
  const unit = await swapUnit(ref, pool, ctx);
  await remember(ctx, unitsSeen([unit]));
  // The address is what changed for whoever uses the unit: said here, and the new connection
  // line is in what follows (its row, or the line itself with -o conn / --conn-format).
  ctx.notice(describeMove(ref, before, unit));
  return show(unit, { ...viewOf(unit), ...(conn ? { conn } : {}) });
}
