// `proxyctl api` and the operations that charge. Create and extend debit the balance (the spec's
// §1); swap and change-protocol charge nothing. gh's rule (fields or a body mean POST) must never
// buy: a POST that only was inferred is refused there (exit 2, before any request), and one written
// out (-X POST, or POST as the first word) is priced with the quote of `units create`/`units
// extend`, checked against the balance and confirmed the same way (asked in a terminal; --yes
// anywhere else, exit 2 without it before any request).
import { API_PREFIX } from '../../api/client.js';
import type { Context } from '../../context/index.js';
import { PolicyError, UsageError } from '../../errors.js';
import { createEntry, enter, extendEntry, hasPolicy, policyNow, underBudget } from '../../ledger/index.js';
import { escapeControl } from '../../output/escape.js';
import { getUnit } from '../../api/endpoints.js';
import { assertAffordable, describeQuote, planPurchase, type Quote, quoteExtension } from '../../units/quote.js';
import { CHARGES, confirmCharge, printQuote } from '../units/ask.js';

/** A request that charges: a purchase (POST /units) or an extension (POST /units/{ref}/extend). */
export type Charging = { kind: 'buy'; what: string; command: string } | { kind: 'extend'; ref: string; what: string; command: string };

/**
 * The charging operation `method path` reaches, if any. The path is read as the client will send
 * it (prefixed, dot segments resolved, trailing slashes and query dropped), in any case.
 */
export function chargingOperation(method: string, path: string): Charging | undefined {
  if (method !== 'POST') return undefined;
  const full = path.startsWith(API_PREFIX) ? path : `${API_PREFIX}${path}`;
  const pathname = new URL(full, 'http://api.invalid').pathname.replace(/\/+$/, '');
  const rest = pathname.slice(API_PREFIX.length);
  if (pathname.slice(0, API_PREFIX.length).toLowerCase() !== API_PREFIX.toLowerCase()) return undefined;
  if (/^\/units$/i.test(rest)) return { kind: 'buy', what: 'buys a unit', command: 'proxyctl units create --pool ID --period P' };
  const extend = /^\/units\/([^/]+)\/extend$/i.exec(rest);
  if (!extend) return undefined;
  const ref = decoded(extend[1]!);
  return { kind: 'extend', ref, what: `extends ${ref}`, command: `proxyctl units extend ${ref} --period P` };
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A POST only inferred from fields or a body: refused when it would charge, before any request. */
export function refuseInferred(op: Charging, path: string, from: string): never {
  throw new UsageError(escapeControl(`${from} make this a POST to ${path}, which ${op.what} and charges the balance; nothing was sent`), {
    code: 'charge_not_explicit',
    hint: escapeControl(`write -X POST to mean it (it is priced and confirmed first), or use ${op.command}`),
  });
}

/**
 * Before a charging request is sent: without --yes, a prompt must be possible (else exit 2 before
 * any request); then the quote (exit 6 when the balance cannot pay it) and the question. A body
 * that does not say what it buys (no poolId and period, no period) is confirmed with its price unknown.
 */
export async function confirmApiCharge(ctx: Context, op: Charging, body: unknown, request: string): Promise<Priced | undefined> {
  const ask = ctx.globals.yes
    ? undefined
    : await ctx.prompt.open({
        unavailable: new UsageError(
          escapeControl(`refusing to send ${request} without confirmation: it ${op.what} and charges the balance`),
          {
            code: 'not_confirmed',
            hint: escapeControl(`add --yes to confirm (it is priced first), or use ${op.command}`),
          },
        ),
        cancelled: CHARGES[op.kind].cancelled,
      });
  const priced = await priceOf(ctx, op, body);
  if (!priced) {
    const unknown = escapeControl(`${request} ${op.what}; its price is not known from this body`);
    if (!ask) {
      ctx.notice(unknown);
      return undefined;
    }
    ctx.io.stderr.write(`${unknown}\n`);
    await ask.confirm({ message: escapeControl(`Send ${request}?`) }, CHARGES[op.kind].declined);
    return undefined;
  }
  assertAffordable(priced.q, priced.what);
  if (!ask) {
    ctx.notice(describeQuote(priced.q, priced.what));
    return priced;
  }
  printQuote(ctx, priced.q, priced.what);
  await confirmCharge(ask.confirm, op.kind, priced.q);
  return priced;
}

/**
 * What a charging request will cost, read from its body: the quote, and the period and pool it
 * names; for an extension, the unit's pool and description as read before it (entered with the
 * debit, so it counts for the unit's customer and country as `units extend`'s does).
 */
export interface Priced {
  q: Quote;
  what: string;
  period: string;
  poolId: string | undefined;
  description: string | undefined;
}

/**
 * Sends a charging request within the profile's policy and budget (exit 12 before sending when
 * it does not fit, or when a policy exists and the body does not say the price), and enters what
 * it debited in the ledger.
 */
export async function sendCharging<R extends { data: unknown }>(
  ctx: Context,
  op: Charging,
  priced: Priced | undefined,
  send: () => Promise<R>,
): Promise<R> {
  const ledger = await ctx.ledger();
  if (!priced) {
    if (hasPolicy(await policyNow(ledger)))
      throw new PolicyError(
        `the price of this request is not known from its body, so the profile's budget and policy cannot be checked; nothing was sent`,
        {
          code: 'price_unknown',
          hint: `name the period (and poolId) in the body, or use ${op.command}`,
        },
      );
    return send();
  }
  const spend = { cost: () => priced.q.total, period: priced.period, poolIds: [priced.poolId] };
  return underBudget(ledger, spend, async (_refs, held) => {
    const r = await send();
    const d = (typeof r.data === 'object' && r.data !== null ? r.data : {}) as Record<string, unknown>;
    const ref = typeof d.proxyRef === 'string' ? d.proxyRef : op.kind === 'extend' ? op.ref : undefined;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    // The unit as the answer says (a purchase answers with it), else as the body or a read said.
    const debit = {
      poolId: text(d.poolId) ?? priced.poolId,
      period: priced.period,
      priceUsd: priced.q.unitPrice,
      description: text(d.description) || priced.description,
    };
    if (held && ref && op.kind === 'buy') {
      await enter(held, [createEntry(held, { ref, ...debit })]);
    } else if (held && ref && op.kind === 'extend' && d.extended === true && typeof d.expiresAt === 'string') {
      await enter(held, [extendEntry(held, { ref, expiresAt: d.expiresAt, ...debit })]);
    }
    return r;
  });
}

/** The quote `units create` or `units extend` would make for the same body, when it names what it needs. */
async function priceOf(ctx: Context, op: Charging, body: unknown): Promise<Priced | undefined> {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const { poolId, period, description } = fields;
  if (typeof period !== 'string') return undefined;
  const api = await ctx.api();
  if (op.kind === 'extend') {
    // Read first, as units extend does: its pool (the policy's country) and its customer tag.
    const unit = await getUnit(api, op.ref);
    const q = await quoteExtension(api, period, 1);
    const text = typeof unit.description === 'string' ? unit.description : undefined;
    return { q, what: `extending ${op.ref} by ${period}`, period, poolId: unit.poolId, description: text };
  }
  if (typeof poolId !== 'string') return undefined;
  const plan = await planPurchase(api, { body: { poolId, period }, count: 1, baseKey: undefined, dryRun: false, description: undefined });
  const text = typeof description === 'string' ? description : undefined;
  return { q: plan.quote, what: `1 × ${period} unit in ${poolId}`, period, poolId, description: text };
}
