// What one `proxyctl mcp` server remembers while it runs: the quotes it gave (paying takes a quote
// id, so an agent pays exactly what it was shown), what it has charged against its own --budget,
// and its ledger, the profile's, with every debit entered as source `mcp`.
import { randomUUID } from 'node:crypto';
import type { Context } from '../context/index.js';
import { ConflictError, NotFoundError, PolicyError, UsageError } from '../errors.js';
import type { Ledger } from '../ledger/index.js';
import { money } from '../output/index.js';
import { cents } from '../units/quote.js';

/** Which tools a server has: read looks only; write changes units and charges nothing; pays quotes and charges. */
export type Scope = 'read' | 'write' | 'pays';

export interface ServerOptions {
  /** The scopes whose tools are listed (read always; write and pays when allowed). */
  scopes: ReadonlySet<Scope>;
  /** USD this server may charge in all, across every call, for as long as it runs (--budget). */
  budgetUsd: number | undefined;
  /** Show proxy passwords in results (--reveal-credentials); masked otherwise. */
  revealCredentials: boolean;
  /** How long a quote can be paid (--quote-ttl). */
  quoteTtlMs: number;
}

interface QuoteBase {
  id: string;
  /** Epoch ms after which the quote is no longer paid. */
  expiresAt: number;
  /** The unit price quoted: a different price now refuses the payment. */
  unitPrice: number;
}

/** A quote of one kind, with what its paying tool needs to carry it out. */
export type Quote<K extends string, D> = QuoteBase & { kind: K } & D;

export class Session {
  private readonly quotes = new Map<string, QuoteBase & { kind: string }>();
  private spentUsd = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private ledgerOf: Promise<Ledger> | undefined;

  constructor(
    private readonly ctx: Context,
    readonly options: ServerOptions,
  ) {}

  /** The profile's ledger and policy, entering this server's debits as source `mcp`. */
  ledger(): Promise<Ledger> {
    this.ledgerOf ??= this.ctx.ledger().then((l): Ledger => ({ ...l, source: 'mcp' }));
    return this.ledgerOf;
  }

  /** A new quote's id: a UUID, so a purchase can take it as its idempotency key. */
  newQuoteId(): string {
    return randomUUID();
  }

  /** Keeps a quote for its paying tool and returns it with its expiry. */
  remember<K extends string, D extends object>(id: string, kind: K, unitPrice: number, data: D): Quote<K, D> {
    const quote = { ...data, id, kind, unitPrice, expiresAt: this.ctx.now().getTime() + this.options.quoteTtlMs };
    this.quotes.set(id, quote);
    return quote as Quote<K, D>;
  }

  /** The quote `id` of this kind; an id this server never gave (or gave for the other kind) is refused. */
  quote<Q extends QuoteBase & { kind: string }>(id: string, kind: Q['kind']): Q {
    const q = this.quotes.get(id);
    if (!q || q.kind !== kind)
      throw new NotFoundError(`no ${kind} quote ${id} from this server`, {
        code: 'quote_not_found',
        hint: `ask for one with quote_${kind} (quotes live as long as the server that gave them)`,
      });
    return q as Q;
  }

  /** Refuses a payment whose quote has expired (exit 2): prices and balances move. */
  assertFresh(q: QuoteBase, kind: string): void {
    if (this.ctx.now().getTime() < q.expiresAt) return;
    throw new UsageError(`quote ${q.id} expired at ${new Date(q.expiresAt).toISOString()}; nothing was charged`, {
      code: 'quote_expired',
      hint: `ask for a new one with quote_${kind}`,
    });
  }

  /** Refuses a payment when the price is no longer the quoted one (exit 8). */
  assertSamePrice(q: QuoteBase, unitPrice: number, kind: string): void {
    if (cents(unitPrice) === cents(q.unitPrice)) return;
    throw new ConflictError(
      `the price changed since quote ${q.id}: ${money(q.unitPrice)} quoted, ${money(unitPrice)} now; nothing was charged`,
      { code: 'price_changed', hint: `ask for a new quote with quote_${kind}` },
    );
  }

  /** The verdict of --budget on a charge of `amountUsd`: undefined when it fits (or there is none). */
  overBudget(amountUsd: number): PolicyError | undefined {
    const max = this.options.budgetUsd;
    if (max === undefined || amountUsd <= 0 || cents(this.spentUsd) + cents(amountUsd) <= cents(max)) return undefined;
    return new PolicyError(
      `this would charge ${money(amountUsd)}; this server has charged ${money(this.spentUsd)} of its --budget ${money(max)}; nothing was charged`,
      { code: 'budget_exceeded', hint: `${money(Math.max(0, max - this.spentUsd))} is left of this server's budget` },
    );
  }

  /**
   * Runs one charging call at a time, within --budget: `fn` gets the check to make once it knows
   * its total, and returns what it charged, which counts against the budget from then on.
   */
  paying<T>(fn: (withinBudget: (amountUsd: number) => void) => Promise<{ value: T; chargedUsd: number }>): Promise<T> {
    const run = this.queue.then(async () => {
      const { value, chargedUsd } = await fn((amount) => {
        const refused = this.overBudget(amount);
        if (refused) throw refused;
      });
      this.spentUsd += chargedUsd;
      return value;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
