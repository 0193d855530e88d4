// The read tools: what `pools`, `prices`, `me`, `units list|get|usage`, `spend` and `webhook log`
// show, through the domain and endpoint functions those verbs call, as structured results. None
// changes anything.
import { priceBookNow, pricesIfSet } from '../../context/prices.js';
import { z } from 'zod';
import { deliveryPages, getPriceList, getSnapshot, getUnit as readUnit, getUnitUsage, unitPages } from '../../api/endpoints.js';
import { gatherStatus } from '../../account/status.js';
import { parseUptimeWindow, readUptime } from '../../account/uptime.js';
import { resolveCheckTarget } from '../../context/check-target.js';
import { parseUnitList } from '../../units/list.js';
import { findPools, parsePoolFilters } from '../../units/pools.js';
import { agentCaCerts, MAX_CA_BYTES, withEnvExtras } from '../../units/check-target.js';
import { parseWhen } from '../../ledger/when.js';
import { deliveryQuery, MAX_LOG_PAGE_SIZE, parseDeliveryStatus } from '../../webhooks/log.js';
import { ApiError, UsageError } from '../../errors.js';
import { errorMessage, runBulk } from '../../units/bulk.js';
import { CheckFailed, candidateFromUnit, checkCandidate, failedResult } from '../../units/check.js';
import { userAgent } from '../../version.js';
import { GROUPINGS, inWindowPages, SpendGroups, SpendTally } from '../../ledger/report.js';
import type { LedgerEntry } from '../../ledger/index.js';
import { parsePaging, takePages } from '../../kit/paging.js';
import { unitFilter } from '../../units/select.js';
import { MAX_PAGE_SIZE, parseRef, parseRefs, UNIT_STATUSES } from '../../units/validate.js';
import { READS_API, READS_LOCAL, defineTool, type AnyTool } from '../tool.js';
import { refArg } from '../args.js';
import { NotFoundError } from '../../errors.js';
import type { Context } from '../../context/index.js';
import { parseCustomer } from '../../ledger/customer.js';
import { listCustomers as customerList, statementOf, type ReportSources } from '../../ledger/customer-report.js';
import { resolveWindow } from '../../ledger/window.js';
import type { Session } from '../session.js';

/** Most items one list call returns; an agent pages by narrowing the filters. */
const MAX_LIST = 1000;

const unit = z.looseObject({ proxyRef: z.string() }).describe('a unit as the API answers it (passwords masked)');
const text = z.string().min(1);

/** At most `limit` items of a paged list, and whether more were there. */
async function firstItems<T>(pages: AsyncIterable<T[]>, limit: number): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  for await (const page of pages) items.push(...page);
  return { items: items.slice(0, limit), truncated: items.length > limit };
}

const listUnits = defineTool({
  name: 'list_units',
  title: 'List units',
  description:
    'Units of the account, active ones unless a status says otherwise (as `proxyctl units list`), filtered by pool, status, customer tag, description text or expiry. At most `limit` units a call: when truncated, call again with offset: nextOffset for the next ones. A customer or description filter is applied here, so the fleet is read page by page to find the matches: `scanned` says how many units were read.',
  scope: 'read',
  annotations: READS_API,
  input: z.object({
    status: z.enum(UNIT_STATUSES).optional().describe('only units with this status'),
    pool: text.optional().describe('only units of this pool id, e.g. US-12'),
    customer: text
      .optional()
      .describe('only units tagged for exactly this customer (customer=NAME in the description; acme is not acme-corp)'),
    descriptionContains: text
      .optional()
      .describe('only units whose description contains this text, in any case: a substring, not a customer selector (use customer)'),
    expiringWithinHours: z.number().int().min(1).optional().describe('only units expiring within this many hours'),
    includeExpired: z.boolean().optional().describe('include expired units'),
    limit: z.number().int().min(1).max(MAX_LIST).default(100).describe(`at most this many units (1 to ${MAX_LIST}, default 100)`),
    offset: z.number().int().min(0).default(0).describe('skip this many matching units first (the nextOffset of a truncated answer)'),
  }),
  output: z.object({
    units: z.array(unit),
    count: z.number().int(),
    truncated: z.boolean().describe('true when more units match than were returned'),
    nextOffset: z.number().int().optional().describe('when truncated: the offset that lists the next units'),
    scanned: z.number().int().describe('units read from the API to find these (all of them, with a customer or description filter)'),
  }),
  async run(a, { ctx }) {
    // The CLI's own checks: the same pool-id normalising and status and customer checks.
    const opts = parseUnitList(
      {
        status: a.status,
        pool: a.pool,
        customer: a.customer,
        descriptionContains: a.descriptionContains,
        expiringWithin: a.expiringWithinHours === undefined ? undefined : String(a.expiringWithinHours),
        includeExpired: a.includeExpired ? true : undefined,
      },
      // One more than asked, to tell whether more match.
      parsePaging({ limit: String(a.offset + a.limit + 1) }, MAX_PAGE_SIZE),
    );
    const keep = unitFilter(opts);
    // Filtered here: the largest pages, so the fleet is read in as few requests as it can be.
    const query = keep ? { ...opts.query, pageSize: MAX_PAGE_SIZE } : opts.query;
    const api = await ctx.api();
    let scanned = 0;
    async function* counted() {
      for await (const page of unitPages(api, query)) {
        scanned += page.items.length;
        yield page;
      }
    }
    const { items, truncated } = await firstItems(takePages(counted(), opts.limit, keep), a.offset + a.limit);
    const units = items.slice(a.offset);
    return { units, count: units.length, truncated, ...(truncated ? { nextOffset: a.offset + units.length } : {}), scanned };
  },
});

const getUnit = defineTool({
  name: 'get_unit',
  title: 'Get a unit',
  description: 'One unit by its reference, with its address, protocol, expiry and credentials (as `proxyctl units get`).',
  scope: 'read',
  annotations: READS_API,
  input: z.object({ ref: refArg.describe('unit reference, e.g. PRX-123') }),
  output: unit,
  async run(a, { ctx }) {
    const api = await ctx.api();
    return readUnit(api, parseRef(a.ref));
  },
});

const getUsage = defineTool({
  name: 'get_usage',
  title: 'Get a unit’s traffic usage',
  description: 'The traffic a unit has used against its quota or daily limit (as `proxyctl units usage`).',
  scope: 'read',
  annotations: READS_API,
  input: z.object({ ref: refArg.describe('unit reference, e.g. PRX-123') }),
  output: z.looseObject({}).describe('the usage record as the API answers it'),
  async run(a, { ctx }) {
    const ref = parseRef(a.ref);
    return getUnitUsage(await ctx.api(), ref);
  },
});

const listPoolsTool = defineTool({
  name: 'list_pools',
  title: 'List pools',
  description: 'The pools units can be bought in, with availability and prices per period (as `proxyctl pools`).',
  scope: 'read',
  annotations: READS_API,
  input: z.object({
    country: text.optional().describe('only this country (ISO alpha-2, e.g. US)'),
    provider: text.optional().describe('only this carrier'),
    state: text.optional().describe('only this state or region'),
    rotation: text.optional().describe('only this rotation interval, e.g. 10m'),
  }),
  output: z.object({
    pools: z.array(z.looseObject({ poolId: z.string() })),
    prices: z.record(z.string(), z.unknown()).optional().describe('USD per period, when the server gives one schedule for every pool'),
  }),
  async run(a, { ctx }) {
    const filters = parsePoolFilters(a);
    const { data, prices } = await findPools(await ctx.api(), filters, ctx);
    return { pools: data, ...(prices ? { prices } : {}) };
  },
});

const getPrices = defineTool({
  name: 'get_prices',
  title: 'Get prices',
  description: 'The price in USD of a unit (and of an extension) per period (as `proxyctl prices`).',
  scope: 'read',
  annotations: READS_API,
  input: z.object({}),
  output: z.looseObject({ prices: z.record(z.string(), z.number()) }),
  run: async (_a, { ctx }) => getPriceList(await ctx.api()),
});

const getAccount = defineTool({
  name: 'get_account',
  title: 'Get the account',
  description: 'The account: balance in USD, discount, unit counts, prices and webhook (as `proxyctl me`).',
  scope: 'read',
  annotations: READS_API,
  input: z.object({}),
  output: z.looseObject({ balanceUsd: z.number() }),
  run: async (_a, { ctx }) => getSnapshot(await ctx.api()),
});

const getSpend = defineTool({
  name: 'get_spend',
  title: 'Get spending',
  description:
    "What proxyctl's ledger says was spent (by the CLI, scripts, agents and webhook listen --ledger): every debit, or totals per day, week, month, customer, pool, country or period (as `proxyctl spend`).",
  scope: 'read',
  annotations: READS_LOCAL,
  input: z.object({
    since: text.optional().describe('from this date (YYYY-MM-DD), time (ISO 8601) or this long ago (24h, 1d12h, 1w, 90m)'),
    until: text.optional().describe('up to this date (to the end of that day), time or this long ago; default now'),
    by: z.enum(GROUPINGS).optional().describe('totals per group instead of one row per debit'),
  }),
  output: z.object({
    totalUsd: z.number(),
    count: z.number().int().describe('debits in the window'),
    entries: z.array(z.looseObject({ ref: z.string(), priceUsd: z.number() })).optional(),
    groups: z.array(z.looseObject({ group: z.string(), totalUsd: z.number() })).optional(),
  }),
  async run(a, { ctx, session }) {
    const now = ctx.now();
    const since = a.since === undefined ? undefined : parseWhen(a.since, 'since', now, false);
    const until = a.until === undefined ? undefined : parseWhen(a.until, 'until', now, true);
    if (since && until && since >= until) throw new UsageError('since must be before until');
    const ledger = await session.ledger();
    // Streamed: totals per group are summed as the debits pass (in any order: sums in cents); every
    // debit is kept only when the answer lists them.
    const tally = new SpendTally();
    const groups = a.by ? new SpendGroups(a.by) : undefined;
    const entries: (LedgerEntry & Record<string, unknown>)[] = [];
    for await (const page of inWindowPages(ledger.journal.pages({ ordered: !groups }), since, until, tally))
      for (const e of page) {
        if (groups) groups.add(e);
        // Plain copies: the result is JSON, whatever the ledger's types carry.
        else entries.push({ ...e });
      }
    const total = { totalUsd: tally.totalUsd, count: tally.count };
    return groups ? { ...total, groups: groups.list().map((g) => ({ ...g })) } : { ...total, entries };
  },
});

const listDeliveries = defineTool({
  name: 'list_deliveries',
  title: 'List webhook deliveries',
  description: 'The webhook delivery log, newest first (as `proxyctl webhook log`).',
  scope: 'read',
  annotations: READS_API,
  input: z.object({
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED']).optional(),
    event: text.optional().describe('event name, e.g. unit.created'),
    limit: z.number().int().min(1).max(MAX_LIST).default(50).describe(`at most this many deliveries (1 to ${MAX_LIST}, default 50)`),
  }),
  output: z.object({ deliveries: z.array(z.looseObject({ id: z.string() })), count: z.number().int(), truncated: z.boolean() }),
  async run(a, { ctx }) {
    const status = parseDeliveryStatus(a.status);
    const paging = parsePaging({ limit: String(a.limit + 1) }, MAX_LOG_PAGE_SIZE, 1_000_000);
    const api = await ctx.api();
    const pages = deliveryPages(api, deliveryQuery({ status, event: a.event }, paging));
    const { items, truncated } = await firstItems(takePages(pages, paging.limit), a.limit);
    return { deliveries: items, count: items.length, truncated };
  },
});

/** The longest list a status or uptime answer carries: the rest is counted, and another tool lists it. */
const MAX_IN_STATUS = 20;

const getStatus = defineTool({
  name: 'get_status',
  title: 'Account status',
  description: `One look at the account (as \`proxyctl status\`): balance and runway, units by status and country, what expires within 24 h, the last day’s uptime, failed webhook deliveries, and units and spend per customer. Its lists are short whatever the fleet's size: the ${MAX_IN_STATUS} units expiring soonest (units.expiringWithin24h counts them all; list_units with expiringWithinHours: 24 lists the rest) and the ${MAX_IN_STATUS} customers who spent most (customersTotal counts them; list_customers lists all).`,
  scope: 'read',
  annotations: READS_API,
  input: z.object({}),
  output: z.looseObject({
    balanceUsd: z.number(),
    customersTotal: z.number().int().optional().describe('customers in all, when more than are listed'),
    more: z.array(z.string()).optional().describe('what was left out of a list, and the tool that lists it'),
  }),
  async run(_a, { ctx }) {
    const status = await gatherStatus(await ctx.api(), ctx.now().getTime(), ctx.ledger, () => pricesIfSet(ctx));
    const more: string[] = [];
    const { expiring } = status.units;
    if (expiring.length > MAX_IN_STATUS)
      more.push(
        `units.expiring lists the ${MAX_IN_STATUS} expiring soonest of ${expiring.length}: list_units with expiringWithinHours: 24 lists them all`,
      );
    const customers = status.customers;
    if (customers && customers.length > MAX_IN_STATUS)
      more.push(`customers lists the ${MAX_IN_STATUS} who spent most of ${customers.length}: list_customers lists them all`);
    return {
      ...status,
      units: { ...status.units, expiring: expiring.slice(0, MAX_IN_STATUS) },
      ...(customers ? { customers: customers.slice(0, MAX_IN_STATUS) } : {}),
      ...(customers && customers.length > MAX_IN_STATUS ? { customersTotal: customers.length } : {}),
      ...(more.length ? { more } : {}),
    };
  },
});

const getUptime = defineTool({
  name: 'get_uptime',
  title: 'Uptime',
  description: `The account’s uptime and each unit’s over a window (as \`proxyctl me uptime\`): the last 24 hours by default, the last N days (day: N, up to 30), or from/to. Units are listed worst first, at most \`limit\` of them (unitsTotal counts them all; offset: nextOffset lists the next ones).`,
  scope: 'read',
  annotations: READS_API,
  input: z.object({
    day: z.number().int().min(1).max(30).optional().describe('the last N days up to now (1 = the last 24 hours, 7 = the last week)'),
    from: text.optional().describe('window start, ISO 8601'),
    to: text.optional().describe('window end, ISO 8601 (default now)'),
    limit: z.number().int().min(1).max(MAX_LIST).default(50).describe(`at most this many units (1 to ${MAX_LIST}, default 50)`),
    offset: z.number().int().min(0).default(0).describe('skip this many units first (the nextOffset of a truncated answer)'),
  }),
  output: z
    .looseObject({
      units: z.array(z.looseObject({})).optional().describe('per unit, lowest uptime first'),
      unitsTotal: z.number().int().optional().describe('units in the window, listed or not'),
      truncated: z.boolean().optional(),
      nextOffset: z.number().int().optional(),
    })
    .describe('the uptime record as the API answers it, its units listed worst first and capped'),
  async run(a, { ctx }) {
    const opts = parseUptimeWindow({ day: a.day === undefined ? undefined : String(a.day), from: a.from, to: a.to }, ctx.now());
    const { units, ...record } = await readUptime(await ctx.api(), opts);
    if (!units) return { ...record };
    // Worst first: a unit with no slot counted (null) after every measured one.
    const rank = (u: (typeof units)[number]) => u.uptimePercent ?? Number.POSITIVE_INFINITY;
    const ranked = [...units].sort((x, y) => (rank(x) === rank(y) ? 0 : rank(x) < rank(y) ? -1 : 1));
    const shown = ranked.slice(a.offset, a.offset + a.limit);
    const truncated = a.offset + shown.length < ranked.length;
    return { ...record, units: shown, unitsTotal: ranked.length, truncated, ...(truncated ? { nextOffset: a.offset + shown.length } : {}) };
  },
});

const checkUnitsTool = defineTool({
  name: 'check_units',
  title: 'Check units through their proxies',
  description:
    'Connect through each unit’s own proxy to a target and report whether it works, its exit address and latency (as `proxyctl units check REF…`). Charges nothing.',
  scope: 'read',
  // It reads, but it connects through the proxies to a target outside the API.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.object({
    refs: z.array(refArg).min(1).max(100).describe('unit references, e.g. ["PRX-123"] (1 to 100)'),
    target: text.optional().describe('the URL fetched through each proxy (default: the profile’s check-target)'),
    timeoutSeconds: z.number().int().min(1).max(120).default(10).describe('per check, 1 to 120 (default 10)'),
    insecure: z.boolean().default(false).describe("an https target: skip its certificate check (as units check's --insecure)"),
    caCert: z
      .string()
      .min(1)
      .max(MAX_CA_BYTES)
      .optional()
      .describe('an https target: also trust these CA certificates, PEM text (-----BEGIN CERTIFICATE----- …)'),
    caCertFile: text
      .max(4096)
      .optional()
      .describe(
        `an https target: also trust the CA certificates in this PEM file on this machine (as --ca-cert): a regular file of at most ${MAX_CA_BYTES / 1024 / 1024} MiB`,
      ),
  }),
  output: z.object({ results: z.array(z.looseObject({ ok: z.boolean() })), passed: z.number().int(), failed: z.number().int() }),
  async run(a, { ctx, signal }) {
    const refs = parseRefs(a.refs);
    const own = await agentCaCerts({ pem: a.caCert, file: a.caCertFile });
    const extraCas = own === undefined ? undefined : await withEnvExtras(own, ctx.io.env);
    const target = await resolveCheckTarget(ctx, a.target);
    const api = await ctx.api();
    const targetTls = { verify: !a.insecure, extraCas };
    const opts = { target, timeoutMs: a.timeoutSeconds * 1000, signal, userAgent: userAgent(), targetTls };
    const report = await runBulk({ signal }, refs, { verb: 'checked', label: (r) => r, concurrency: 8 }, async (ref) => {
      try {
        return await checkCandidate(candidateFromUnit(await readUnit(api, ref)), opts);
      } catch (err) {
        if (err instanceof CheckFailed) return err.result;
        if (err instanceof ApiError && err.status === 404)
          return failedResult({ ref, line: null }, 'not_found', `the API has no unit ${ref}`);
        throw err;
      }
    });
    const results = report.outcomes.map((o) =>
      o.ok ? { ...o.value } : { ...failedResult({ ref: o.label, line: null }, 'api_error', errorMessage(o.error)) },
    );
    const passed = results.filter((r) => r.ok).length;
    return { results, passed, failed: results.length - passed };
  },
});

/** The ledger and the price book of the server's profile, read as they are now (a `customers set` made meanwhile counts). */
async function customerSources(ctx: Context, session: Session): Promise<ReportSources> {
  const [ledger, book] = await Promise.all([session.ledger(), priceBookNow(ctx)]);
  return { journal: ledger.journal, book };
}

const windowInput = {
  month: text.optional().describe('one calendar month, YYYY-MM (local time of this machine), instead of since/until'),
  since: text.optional().describe('from this date (YYYY-MM-DD), time (ISO 8601) or this long ago (24h, 7d)'),
  until: text.optional().describe('up to this date (to the end of that day), time or this long ago; default now'),
};
const windowNames = { since: 'since', until: 'until', month: 'month' };
const money = z.number().describe('USD');

const listCustomersTool = defineTool({
  name: 'list_customers',
  title: 'List customers',
  description:
    'One row per customer (customer=NAME tags) and one for untagged spend (customer null): active units, the next expiry, and what the window’s debits cost, are billed by the customer’s prices and earn (as `proxyctl customers`; default the last 30 days).',
  scope: 'read',
  annotations: READS_API,
  input: z.object(windowInput),
  output: z.object({
    from: z.string(),
    to: z.string(),
    customers: z.array(
      z.object({
        customer: z.string().nullable(),
        activeUnits: z.number().int(),
        nextExpiry: z.string().nullable(),
        costUsd: money,
        billedUsd: money,
        marginUsd: money,
      }),
    ),
  }),
  async run(a, { ctx, session }) {
    const window = resolveWindow(a, ctx.now(), 30, windowNames);
    const rows = await customerList(await ctx.api(), await customerSources(ctx, session), window);
    return { from: window.since.toISOString(), to: window.until.toISOString(), customers: rows.map((r) => ({ ...r })) };
  },
});

const getStatement = defineTool({
  name: 'get_statement',
  title: 'Get a customer’s statement',
  description:
    'One line per debit attributed to the customer in the window (at, ref, operation, poolId, period, costUsd, billedUsd) and the totals (as `proxyctl customers statement NAME`; default the last 30 days).',
  scope: 'read',
  annotations: READS_API,
  input: z.object({ customer: text.describe('the customer, as in its customer=NAME tag'), ...windowInput }),
  output: z.object({
    customer: z.string(),
    from: z.string(),
    to: z.string(),
    lines: z.array(
      z.object({
        at: z.string(),
        ref: z.string(),
        operation: z.string(),
        poolId: z.string().nullable(),
        period: z.string().nullable(),
        costUsd: money,
        billedUsd: money,
      }),
    ),
    costUsd: money,
    billedUsd: money,
    marginUsd: money,
  }),
  async run(a, { ctx, session }) {
    const name = parseCustomer(a.customer, 'customer');
    const window = resolveWindow(a, ctx.now(), 30, windowNames);
    const st = await statementOf(await ctx.api(), await customerSources(ctx, session), name, window);
    if (!st)
      throw new NotFoundError(
        `no customer "${name}": no debit in the ledger was ever attributed to it, no unit is tagged with it, and it has no prices`,
        {
          code: 'customer_not_found',
          hint: 'list_customers names the customers',
        },
      );
    return { ...st, lines: st.lines.map((l) => ({ ...l })) };
  },
});

export const readTools: readonly AnyTool[] = [
  getAccount,
  getStatus,
  getUptime,
  listPoolsTool,
  getPrices,
  listUnits,
  getUnit,
  getUsage,
  checkUnitsTool,
  getSpend,
  listCustomersTool,
  getStatement,
  listDeliveries,
];
