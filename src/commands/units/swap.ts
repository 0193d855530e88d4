// `units swap REF --pool NEW`: free, keeps the remaining time; prints the new connection.
import { getUnit, listPools } from '../../api/endpoints.js';
import { show, type Result } from '../../kit/action.js';
import type { Input } from './swap.command.js';
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { escapeControl, type View } from '../../output/index.js';
import { connFormatFor } from '../../output/conn.js';
import type { Pool, Unit } from '../../units/types.js';
import { describeMove, readBefore, sameCountryPool, swapUnit } from '../../units/swap.js';
import { catalogueSeen, remember, unitsSeen } from '../../kit/remember.js';
import { normalisePoolId } from '../../units/catalogue-ids.js';
import { parseRef } from '../../units/validate.js';
import { changedUnitView, unitDetailView } from '../../units/view.js';
import { askForMissing, poolChoice, poolWhere } from './ask.js';

/** The detail view without the rows a unit lacks (`status -` says nothing). */
function viewOf(unit: Unit): View<Unit> {
  const absent = new Set(['status', 'country'].filter((k) => unit[k] === undefined));
  const view = changedUnitView(unitDetailView);
  return { ...view, columns: view.columns?.filter((c) => !absent.has(c.header)) };
}

/** No --pool: chosen in a terminal from the catalogue, the unit's own country first; else exit 2. */
async function askPool(ref: string, ctx: Context): Promise<{ pool: string; unit: Unit }> {
  const { select } = await askForMissing(ctx, '--pool', {
    what: 'the new pool id; see proxyctl pools',
    example: `proxyctl units swap ${ref} --pool US-14`,
    cancelled: 'cancelled; nothing was swapped',
  });
  const api = await ctx.api();
  const unit = (await getUnit(api, ref)) as Unit & { country?: string };
  const catalogue = (await listPools(api)).data;
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

/** How the same-country pick is told on the command line: the pools it read fill the completion cache, the pick is said on stderr. */
export function told(ctx: Context) {
  return { seen: (pools: readonly Pool[]) => remember(ctx, catalogueSeen(pools)), notice: (text: string) => ctx.notice(text) };
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const conn = connFormatFor(ctx, flags.connFormat);
  const ref = parseRef(raw);
  if (flags.sameCountry && flags.pool !== undefined) throw new UsageError('--same-country picks the pool itself; leave out --pool');
  const api = await ctx.api();
  let pool: string;
  let before: Unit | undefined;
  if (flags.sameCountry) {
    before = await readBefore(api, ref);
    pool = await sameCountryPool(api, ref, before, told(ctx));
  } else if (flags.pool === undefined) {
    ({ pool, unit: before } = await askPool(ref, ctx));
  } else {
    pool = normalisePoolId(flags.pool);
    if (!pool) throw new UsageError('--pool needs the new pool id (see proxyctl pools)');
    before = await readBefore(api, ref);
  }
  const unit = await swapUnit(api, await ctx.ledger(), ref, pool);
  await remember(ctx, unitsSeen([unit]));
  // The address is what changed for whoever uses the unit: said here, and the new connection
  // line is in what follows (its row, or the line itself with -o conn / --conn-format).
  ctx.notice(describeMove(ref, before, unit));
  return show(unit, { ...viewOf(unit), ...(conn ? { conn } : {}) });
}
