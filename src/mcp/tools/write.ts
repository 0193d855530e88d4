// The write tools (--allow-write): `units modify`, `units swap` and `units release` through the
// domain functions those verbs call. They charge nothing; release destroys, so it must be confirmed
// with the count of the units it is about to delete.
import { z } from 'zod';
import { bodyFor, descriptionBefore, modifyUnit, parseModify } from '../../units/modify.js';
import { releaseUnit } from '../../units/release.js';
import { changeProtocol, parseChangeProtocol } from '../../units/change-protocol.js';
import { addressOf, describeMove, readBefore, sameCountryPool, swapUnit } from '../../units/swap.js';
import { UsageError } from '../../errors.js';
import { runBulk } from '../../units/bulk.js';
import { normalisePoolId } from '../../units/catalogue-ids.js';
import { MAX_COUNT, parseRef, parseRefs } from '../../units/validate.js';
import { bulkOutput, bulkResult } from '../bulk.js';
import { defineTool, type AnyTool } from '../tool.js';
import { refArg } from '../args.js';

const refs = z
  .array(refArg)
  .min(1)
  .max(MAX_COUNT)
  .describe(`unit references, e.g. ["PRX-123"] (1 to ${MAX_COUNT}; one named twice is done once)`);

const modifyUnits = defineTool({
  name: 'modify_units',
  title: 'Modify units',
  description:
    'Replace the description, tag for a customer (customer=NAME in the description, the rest of the text kept), replace the IP whitelist or set new credentials of units (as `proxyctl units modify`). Free.',
  scope: 'write',
  // A description or whitelist given replaces the one there: not only additive.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  input: z.object({
    refs,
    description: z.string().optional().describe('the new description (replaces the old one)'),
    customer: z.string().min(1).optional().describe('tag the units for this customer, keeping the rest of their description'),
    allowIps: z.array(z.string()).min(1).optional().describe('the new IP whitelist (replaces the list; http_noauth units)'),
    username: z.string().min(1).optional().describe('new proxy username (with password)'),
    password: z.string().min(1).optional().describe('new proxy password (with username)'),
  }),
  output: z.object(bulkOutput),
  async run(a, { ctx, signal }) {
    const change = parseModify({
      description: a.description,
      customer: a.customer,
      allowIp: a.allowIps,
      username: a.username,
      password: a.password,
    });
    const report = await runBulk({ signal }, parseRefs(a.refs), { verb: 'modified', label: (r) => r }, async (ref) => {
      // The CLI's path: the tag a description gives goes to the account's ledger.
      const run = { api: await ctx.api(), ledger: ctx.ledger, now: ctx.now, warn: ctx.warn };
      const before =
        change.customer !== undefined && change.body.description === undefined ? await descriptionBefore(run.api, ref) : undefined;
      return modifyUnit(run, ref, bodyFor(change, before?.description), before);
    });
    return bulkResult(report);
  },
});

const swapUnitTool = defineTool({
  name: 'swap_unit',
  title: 'Swap a unit to another pool',
  description:
    'Move a unit to another pool, keeping its remaining time (as `proxyctl units swap`). Free, but its address changes: clients using the old one stop working. Give pool, or sameCountry to let proxyctl pick an available pool in the same country.',
  scope: 'write',
  // The old address stops working, and swapping again moves the unit again.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: z.object({
    ref: refArg.describe('unit reference, e.g. PRX-123'),
    pool: z.string().min(1).optional().describe('the new pool id, e.g. US-14'),
    sameCountry: z
      .boolean()
      .optional()
      .describe("pick an available pool in the unit's country (same state first, another provider preferred)"),
  }),
  output: z.looseObject({
    proxyRef: z.string(),
    previousAddress: z.string().nullable().describe('ip:port before the swap (null when it could not be read)'),
    change: z.string().describe('what changed for whoever uses the unit, as `proxyctl units swap` says it'),
  }),
  async run(a, { ctx, session }) {
    const ref = parseRef(a.ref);
    if (a.sameCountry && a.pool !== undefined) throw new UsageError('sameCountry picks the pool itself; leave out pool');
    if (!a.sameCountry && a.pool === undefined) throw new UsageError('give pool (the new pool id) or sameCountry: true');
    // Read first, as the CLI does: the old address is what the agent has to tell the unit's user is gone.
    const api = await ctx.api();
    const before = await readBefore(api, ref);
    const pool = a.sameCountry ? await sameCountryPool(api, ref, before) : normalisePoolId(a.pool!);
    // The profile's rules as they are now: a country the policy left out is refused (exit 12).
    const unit = await swapUnit(api, await session.ledger(), ref, pool);
    return { ...unit, previousAddress: addressOf(before) ?? null, change: describeMove(ref, before, unit) };
  },
});

const releaseUnits = defineTool({
  name: 'release_units',
  title: 'Release units',
  description:
    'Delete units permanently, with no refund (as `proxyctl units release`). Refused unless confirm repeats how many units are named.',
  scope: 'write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  input: z.object({
    refs,
    confirm: z.number().int().describe('the number of units in refs, repeated to confirm that they are to be deleted for good'),
  }),
  output: z.object(bulkOutput),
  async run(a, { ctx, signal }) {
    const list = parseRefs(a.refs);
    if (a.confirm !== list.length)
      throw new UsageError(
        `refusing to release ${list.length} unit${list.length === 1 ? '' : 's'}: confirm is ${a.confirm}; nothing was released`,
        {
          code: 'not_confirmed',
          hint: `releasing deletes units permanently with no refund; to go ahead, call again with confirm: ${list.length}`,
        },
      );
    const api = await ctx.api();
    const report = await runBulk({ signal }, list, { verb: 'released', label: (r) => r }, (ref) => releaseUnit(api, ref));
    return bulkResult(report);
  },
});

const changeProtocolTool = defineTool({
  name: 'change_protocol',
  title: 'Change a unit’s protocol',
  description:
    'Switch a unit to socks5, http or http_noauth (as `proxyctl units change-protocol`). Free, but clients using the old protocol stop working; http_noauth needs exactly one allowed client IP.',
  scope: 'write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: z.object({
    ref: refArg.describe('unit reference, e.g. PRX-123'),
    protocol: z.enum(['socks5', 'http', 'http_noauth']),
    allowIps: z.array(z.string()).max(1).optional().describe('with http_noauth: the one client IP allowed'),
    username: z.string().min(1).optional().describe('new proxy username (with password; not for http_noauth)'),
    password: z.string().min(1).optional().describe('new proxy password (with username)'),
  }),
  output: z.looseObject({ proxyRef: z.string() }),
  async run(a, { ctx }) {
    const body = parseChangeProtocol({ protocol: a.protocol, allowIp: a.allowIps, username: a.username, password: a.password });
    const ref = parseRef(a.ref);
    return changeProtocol(await ctx.api(), ref, body);
  },
});

export const writeTools: readonly AnyTool[] = [modifyUnits, swapUnitTool, changeProtocolTool, releaseUnits];
