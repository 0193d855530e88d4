// The pays tools (--allow-spend). Paying takes two calls: a quote, which charges nothing and
// returns an id with the exact total, the balance before and after, the budget's verdict and an
// expiry; then the paying tool with that id, which carries out exactly that quote, once.
//
// - create_units buys through the CLI's purchase path (planPurchase, createBatch) with the quote
//   id as the batch's idempotency key: the same id again replays the units bought under it (the
//   server's idempotency and the purchase records) and never buys again; only what is still to
//   buy is held to the expiry, the price and the budgets.
// - extend_units has no key to lean on (extend has none), so the server keeps each quote's outcome
//   and hands it back to a second call; the units' expiries read at quote time also keep a unit
//   extended elsewhere since from being extended again (extendSafely).
//
// Every charge runs within the profile's policy and daily budget (underBudget) and the server's
// --budget, and is entered in the ledger with source `mcp`.
import { allUnits, getUnit } from '../../api/endpoints.js';
import { z } from 'zod';
import { budgetVerdict } from '../../ledger/verdict.js';
import type { Spend } from '../../ledger/index.js';
import { PERIODS, PROTOCOLS } from '../../api/enums.js';
import { runBulk } from '../../units/bulk.js';
import { isComplete, parseCreateFlags, type CreateInput } from '../../units/create-input.js';
import { purchase, purchaseSpend } from '../../units/purchase.js';
import { extensionSpend } from '../../units/extend-safely.js';
import { extend } from '../../units/extension.js';
import { planPurchase, quoteExtension, type Quote as Price } from '../../units/quote.js';
import type { Unit } from '../../units/types.js';
import { InterruptedError, NotFoundError, UsageError } from '../../errors.js';
import { normalisePoolIdFlag } from '../../units/catalogue-ids.js';
import { collectExpiring, expiringQuery, nothingExpiring } from '../../units/select.js';
import { parseCustomer } from '../../ledger/customer.js';
import { MAX_COUNT, parsePeriod, parseRefs } from '../../units/validate.js';
import { bulkOutput, bulkResult, type BulkResult } from '../bulk.js';
import type { Quote, Session } from '../session.js';
import { defineTool, type AnyTool, type ToolCall } from '../tool.js';
import { refArg } from '../args.js';

type CreateQuote = Quote<'create', { input: CreateInput }>;
type ExtendQuote = Quote<
  'extend',
  {
    refs: string[];
    period: string;
    pools: Map<string, string>;
    expiries: Map<string, string | undefined>;
    /** The one outcome of paying it: a second call gets the same. */
    outcome?: Promise<ExtendOutcome>;
  }
>;

/** A quote's price against the balance, as the CLI's --dry-run shows it. */
const priceOutput = {
  quoteId: z.string().describe('pass it to the paying tool before expiresAt'),
  unitPrice: z.number().describe('USD per unit'),
  count: z.number().int(),
  total: z.number().describe('USD the paying tool will charge'),
  balanceUsd: z.number().describe('the balance now'),
  balanceAfter: z.number().describe('the balance after paying'),
  affordable: z.boolean(),
  withinBudget: z.boolean().describe("whether the profile's policy and budgets and this server's --budget allow it now"),
  budget: z.string().describe('what the budgets say'),
  expiresAt: z.string().describe('after this time the quote is no longer paid (ISO 8601)'),
};

const quoteId = z.object({ quoteId: z.uuid().describe('the id a quote tool returned') });

/** The budgets' verdict on a quote: this server's --budget first, then the profile's policy and daily budget. */
async function verdict(session: Session, spend: Spend, total: number): Promise<{ withinBudget: boolean; budget: string }> {
  const server = session.overBudget(total);
  if (server) return { withinBudget: false, budget: server.message };
  const profile = await budgetVerdict(await session.ledger(), spend);
  if (profile) return { withinBudget: profile.ok, budget: profile.text };
  const has = session.options.budgetUsd !== undefined;
  return { withinBudget: true, budget: has ? "within this server's --budget" : 'no budget or policy is set' };
}

function priced(q: { id: string; expiresAt: number }, price: Price) {
  return {
    quoteId: q.id,
    ...price,
    affordable: price.balanceAfter >= 0,
    expiresAt: new Date(q.expiresAt).toISOString(),
  };
}

const quoteCreate = defineTool({
  name: 'quote_create',
  title: 'Quote a purchase',
  description:
    'Price a purchase of units (as `proxyctl units create --dry-run`): charges nothing; returns a quoteId for create_units, the exact total, the balance before and after, the budget verdict and when the quote expires.',
  scope: 'pays',
  // Reads prices and the balance; the quote is kept only in this server's memory.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.object({
    pool: z.string().min(1).describe('pool to buy from, e.g. US-12 (see list_pools)'),
    period: z.enum(PERIODS),
    count: z.number().int().min(1).max(MAX_COUNT).default(1).describe(`how many units, 1 to ${MAX_COUNT} (default 1)`),
    protocol: z.enum(PROTOCOLS).optional().describe('socks5 (default), http or http_noauth'),
    allowIps: z.array(z.string()).optional().describe('the client IP allowed to use an http_noauth unit (exactly one)'),
    description: z.string().optional().describe('written on each unit right after it is bought'),
    customer: z.string().min(1).optional().describe('tag each unit for this customer (customer=NAME in its description)'),
  }),
  output: z.object({ ...priceOutput, poolId: z.string(), period: z.string(), protocol: z.string() }),
  async run(a, { ctx, session }) {
    const id = session.newQuoteId();
    // The CLI's validation, with the quote id as the batch's idempotency key.
    const parsed = parseCreateFlags({
      pool: a.pool,
      period: a.period,
      protocol: a.protocol,
      allowIp: a.allowIps,
      count: String(a.count),
      idempotencyKey: id,
      description: a.description,
      customer: a.customer,
    });
    if (!isComplete(parsed)) throw new UsageError('pool and period are required');
    const input = parsed;
    const api = await ctx.api();
    const plan = await planPurchase(api, input);
    const price = plan.quote;
    const v = await verdict(session, purchaseSpend(input, plan), price.total);
    const q = session.remember(id, 'create', price.unitPrice, { input });
    return {
      ...priced(q, price),
      ...v,
      poolId: input.body.poolId,
      period: input.body.period,
      protocol: input.body.protocol ?? 'socks5',
    };
  },
});

const createUnits = defineTool({
  name: 'create_units',
  title: 'Buy units (pays)',
  description:
    'Buy exactly what a quote_create quote priced, charging the balance. Calling again with the same quoteId replays the units bought and never buys twice. Refused when the quote expired, the price changed, or a budget would be exceeded. Passwords in the result are masked unless the server runs with --reveal-credentials.',
  scope: 'pays',
  // The same quote id again changes nothing more (it replays): idempotent, though it spends.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: quoteId,
  output: z.object({
    quoteId: z.string(),
    ...bulkOutput,
    replayed: z.number().int().describe('units this quote had bought already: shown again, not charged again'),
    untagged: z
      .array(z.string())
      .optional()
      .describe('units bought whose description could not be written: the same quoteId again writes it (nothing is bought again)'),
    chargedUsd: z.number(),
    balanceUsd: z.number().optional().describe('the balance read back after paying'),
  }),
  run: async (a, { ctx, session, signal }) => {
    const q = session.quote<CreateQuote>(a.quoteId, 'create');
    return session.paying(async (withinBudget) => {
      const api = await ctx.api();
      const ledger = await session.ledger();
      // The CLI's money path; only what is still to buy under this quote's key is held to the
      // quote's expiry, its price and this server's --budget (the profile's rules are read now).
      const { batch, charge } = await purchase({ api, ledger, signal }, q.input, {
        check: (plan) => {
          session.assertFresh(q, 'create');
          session.assertSamePrice(q, plan.quote.unitPrice, 'create');
          withinBudget(plan.quote.total);
        },
      });
      const chargedUsd = charge?.amount ?? 0;
      const value = {
        quoteId: q.id,
        // Nothing bought at all is the failure itself (after the charge is settled: there is none).
        ...bulkResult(batch.report, 'item'),
        replayed: batch.replayed.size,
        ...(batch.untagged.size > 0 ? { untagged: [...batch.untagged.keys()] } : {}),
        chargedUsd,
        ...(charge?.balanceUsd !== undefined ? { balanceUsd: charge.balanceUsd } : {}),
      };
      return { value, chargedUsd };
    });
  },
});

const quoteExtend = defineTool({
  name: 'quote_extend',
  title: 'Quote an extension',
  description:
    'Price extending units by one period (as `proxyctl units extend --dry-run`), named by refs or, to renew, selected as the active units expiring within some hours (as `units extend --expiring-within`, optionally in one pool or with a description text, or of one customer by its exact tag): charges nothing; returns a quoteId for extend_units, the units it covers, the exact total, the balance before and after, the budget verdict and when the quote expires.',
  scope: 'pays',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.object({
    refs: z.array(refArg).min(1).max(MAX_COUNT).optional().describe('unit references (one named twice is extended once)'),
    expiringWithinHours: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('instead of refs: every active unit expiring within this many hours (a renewal)'),
    pool: z.string().min(1).optional().describe('with expiringWithinHours: only units of this pool'),
    customer: z
      .string()
      .min(1)
      .optional()
      .describe('with expiringWithinHours: only units tagged for exactly this customer (customer=NAME in the description)'),
    descriptionContains: z
      .string()
      .min(1)
      .optional()
      .describe('with expiringWithinHours: only units whose description contains this text (a substring, not a customer: use customer)'),
    period: z.enum(PERIODS),
  }),
  output: z.object({ ...priceOutput, refs: z.array(z.string()), period: z.string() }),
  async run(a, { ctx, session, signal }) {
    const period = parsePeriod(a.period);
    const api = await ctx.api();
    const refs = await refsToQuote(a, api, ctx.now().getTime());
    // Each unit read now: its pool for the policy's countries, its expiry so that a unit extended
    // elsewhere before the quote is paid is not extended a second time.
    const read = await runBulk({ signal }, refs, { verb: 'read', label: (r) => r }, (ref) => getUnit(api, ref));
    // A unit that cannot be read (an unknown ref: exit 5) is the quote's failure.
    for (const o of read.outcomes) if (!o.ok) throw o.error;
    if (read.pending.length > 0) throw new InterruptedError('cancelled before every unit was read; nothing was quoted');
    const units = new Map<string, Unit>(read.outcomes.flatMap((o) => (o.ok ? [[o.label, o.value] as const] : [])));
    const pools = new Map([...units].flatMap(([ref, u]) => (u.poolId ? [[ref, u.poolId] as const] : [])));
    const price = await quoteExtension(api, period, refs.length);
    const v = await verdict(session, extensionSpend(price, period, refs, pools), price.total);
    const expiries = new Map([...units].map(([ref, u]) => [ref, u.expiresAt] as const));
    const q = session.remember(session.newQuoteId(), 'extend', price.unitPrice, { refs, period, pools, expiries });
    return { ...priced(q, price), ...v, refs, period };
  },
});

/** The refs a quote_extend covers: named, or the renewal selection (exit 2 for both or neither; 5 when nothing is due). */
async function refsToQuote(
  a: {
    refs?: string[] | undefined;
    expiringWithinHours?: number | undefined;
    pool?: string | undefined;
    customer?: string | undefined;
    descriptionContains?: string | undefined;
  },
  api: Awaited<ReturnType<ToolCall['ctx']['api']>>,
  now: number,
): Promise<string[]> {
  const selecting = a.expiringWithinHours !== undefined;
  if (selecting === (a.refs !== undefined))
    throw new UsageError('give refs, or expiringWithinHours to select the units due for renewal (not both)');
  if (!selecting) {
    if (a.pool !== undefined || a.customer !== undefined || a.descriptionContains !== undefined)
      throw new UsageError('pool, customer and descriptionContains select with expiringWithinHours; with refs, name the units only');
    return parseRefs(a.refs!);
  }
  const criteria = {
    hours: a.expiringWithinHours!,
    poolId: normalisePoolIdFlag(a.pool),
    customer: a.customer === undefined ? undefined : parseCustomer(a.customer, 'customer'),
    text: a.descriptionContains,
  };
  const units = await collectExpiring(allUnits(api, expiringQuery(criteria)), criteria, now);
  if (units.size === 0) throw new NotFoundError(nothingExpiring(criteria), { code: 'nothing_to_renew' });
  return [...units.keys()];
}

type ExtendOutcome = BulkResult & { quoteId: string; chargedUsd: number; balanceUsd?: number; heldElsewhere: string[]; replayed: boolean };

const extendUnits = defineTool({
  name: 'extend_units',
  title: 'Extend units (pays)',
  description:
    'Extend exactly the units a quote_extend quote priced, by its period, charging the balance. Calling again with the same quoteId returns the first outcome and extends nothing again. Refused when the quote expired, the price changed, or a budget would be exceeded.',
  scope: 'pays',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: quoteId,
  output: z.object({
    quoteId: z.string(),
    ...bulkOutput,
    heldElsewhere: z.array(z.string()).describe('units another proxyctl run was extending at that moment: left to it'),
    chargedUsd: z.number().describe('USD this call charged: 0 when the quote was paid by an earlier call'),
    replayed: z.boolean().describe('true when this is the outcome of an earlier call on the same quote (nothing charged now)'),
    balanceUsd: z.number().optional(),
  }),
  async run(a, { ctx, session, signal }) {
    const q = session.quote<ExtendQuote>(a.quoteId, 'extend');
    // Paid already: the same outcome, but nothing is charged by this call, so it says 0 (an agent
    // adding up chargedUsd counts each charge once).
    if (q.outcome) return q.outcome.then((first) => ({ ...first, chargedUsd: 0, replayed: true }));
    // A refusal before anything was sent (expired, price, budget) is not the quote's outcome: a
    // later call may try again. Once extending has started, its outcome is the only one.
    let started = false;
    const outcome = session.paying(async (withinBudget) => {
      session.assertFresh(q, 'extend');
      const api = await ctx.api();
      const ledger = await session.ledger();
      // The CLI's money path, on exactly the quoted units, with the expiries read at quote time.
      const { report, heldElsewhere, charge } = await extend(
        { api, ledger, signal },
        { refs: q.refs, period: q.period, pools: q.pools, expiries: q.expiries },
        {
          check: (price) => {
            session.assertSamePrice(q, price.unitPrice, 'extend');
            withinBudget(price.total);
          },
          // Past the budgets: from here on this is the quote's one outcome.
          onEvent: (e) => {
            if (e.type === 'started') started = true;
          },
        },
      );
      const chargedUsd = charge?.amount ?? 0;
      const value: ExtendOutcome = {
        quoteId: q.id,
        ...bulkResult(report),
        heldElsewhere,
        chargedUsd,
        replayed: false,
        ...(charge?.balanceUsd !== undefined ? { balanceUsd: charge.balanceUsd } : {}),
      };
      return { value, chargedUsd };
    });
    q.outcome = outcome;
    outcome.catch(() => {
      if (!started && q.outcome === outcome) q.outcome = undefined;
    });
    return outcome;
  },
});

export const paysTools: readonly AnyTool[] = [quoteCreate, createUnits, quoteExtend, extendUnits];
