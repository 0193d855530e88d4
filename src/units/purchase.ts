// The money path of a purchase, the one every front door calls: `units create` (guided or not),
// the agent's create_units and the SDK's createUnitsSafely. In order: what is left to buy under
// the key and its price (planPurchase), the front door's own checks, the balance, the profile's
// policy and daily budget as they are at this moment (underBudget reads the profile again), the
// hold, the purchases (createBatch: never twice), the ledger, and the charge told from what was
// really bought, replays never counted.
import type { ApiClient } from '../api/client.js';
import { noteBalance, underBudget, type Ledger, type Spend } from '../ledger/index.js';
import { budgetVerdict, type BudgetVerdict } from '../ledger/verdict.js';
import type { BulkOptions } from './bulk.js';
import { settleCharge, type Charge } from './charge.js';
import { createBatch, recoverPurchases, type Batch } from './create-safely.js';
import type { CreateInput } from './create-input.js';
import type { Unit } from './types.js';
import { newBaseKey } from './idempotency.js';
import { assertAffordable, planPurchase, type PurchasePlan } from './quote.js';

/** Where a run charges: the API, the ledger with the profile's rules, and Ctrl-C. */
export interface PayingRun {
  api: ApiClient;
  ledger: Ledger | undefined;
  signal: AbortSignal;
}

export interface PurchaseSteps {
  /** The plan the front door already made and showed (the guided flow's confirmed quote). */
  plan?: PurchasePlan | undefined;
  /**
   * The front door's own checks once the plan is known and something is left to buy (the agent
   * server's quote expiry, price and --budget); they throw to refuse, before anything is charged.
   */
  check?: ((plan: PurchasePlan) => void) | undefined;
  /** Told the batch's key once every check has passed and the hold is taken, before the first purchase. */
  onStart?: ((baseKey: string) => void) | undefined;
  /**
   * false: the balance is left to the API, so the items it covers are bought and the rest fail
   * one by one with 402 (the SDK's long-standing contract). Default: a batch the balance cannot
   * pay in full is refused before anything is bought (exit 6).
   */
  checkBalance?: boolean | undefined;
  onEvent?: BulkOptions<number>['onEvent'];
  describe?: BulkOptions<number>['describe'];
  onBought?: ((proxyRef: string, baseKey: string) => void) | undefined;
  /** Given each unit as its item is done (bought or replayed), before the batch ends. */
  onUnit?: ((unit: Unit) => void) | undefined;
  concurrency?: number | undefined;
}

export interface Purchase {
  plan: PurchasePlan;
  baseKey: string;
  batch: Batch;
  /** Units this run paid for: bought now, not replayed. */
  bought: number;
  /** What this run charged and the balance read back; undefined when nothing was charged. */
  charge: Charge | undefined;
}

/** `3 × 7d units in US-12`, for messages. */
export function describePurchase(input: CreateInput, count: number): string {
  return `${count} × ${input.body.period} unit${count === 1 ? '' : 's'} in ${input.body.poolId}`;
}

/** What a purchase of the plan asks of the budget: the whole price of what is left to buy. */
export function purchaseSpend(input: CreateInput, plan: PurchasePlan): Spend {
  return { cost: () => plan.quote.total, period: input.body.period, poolIds: [input.body.poolId] };
}

/** A quote without buying: the plan and, when the profile has rules, their verdict now. */
export async function quotePurchase(
  run: Omit<PayingRun, 'signal'>,
  input: CreateInput,
): Promise<{ plan: PurchasePlan; budget: BudgetVerdict | undefined }> {
  const plan = await planPurchase(run.api, input);
  await noteBalance(run.ledger, plan.quote.balanceUsd);
  return { plan, budget: await budgetVerdict(run.ledger, purchaseSpend(input, plan)) };
}

export async function purchase(run: PayingRun, input: CreateInput, steps: PurchaseSteps = {}): Promise<Purchase> {
  const { api, ledger } = run;
  // A batch resumed with its key: what the dead run entered in the journal counts as bought, even
  // where this machine's purchase records lack it (the SDK in a new process, another machine).
  if (input.baseKey && ledger) await recoverPurchases(api, ledger.journal, input.baseKey, input.body, input.count);
  const plan = steps.plan ?? (await planPurchase(api, input));
  await noteBalance(ledger, plan.quote.balanceUsd);
  if (plan.toBuy > 0) {
    steps.check?.(plan);
    if (steps.checkBalance !== false) assertAffordable(plan.quote, describePurchase(input, plan.toBuy));
  }
  const baseKey = input.baseKey ?? newBaseKey();
  // The hold is the batch's: a resume with this key takes over the hold of a killed run with it.
  const spend = { ...purchaseSpend(input, plan), batch: { key: baseKey, unitUsd: plan.quote.unitPrice } };
  const batch = await underBudget(ledger, spend, (_refs, held) => {
    steps.onStart?.(baseKey);
    return createBatch(api, input.body, {
      count: input.count,
      baseKey,
      signal: run.signal,
      description: input.description,
      ledger: held,
      priceUsd: plan.quote.unitPrice,
      ...(steps.describe ? { describe: steps.describe } : {}),
      ...(steps.onEvent ? { onEvent: steps.onEvent } : {}),
      ...(steps.onBought ? { onBought: (ref: string) => steps.onBought?.(ref, baseKey) } : {}),
      ...(steps.onUnit ? { onUnit: steps.onUnit } : {}),
      ...(steps.concurrency ? { concurrency: steps.concurrency } : {}),
    });
  });
  const bought = batch.report.outcomes.filter((o) => o.ok && !batch.replayed.has(o.index)).length;
  const charge = await settleCharge(api, plan.quote.unitPrice, bought);
  await noteBalance(ledger, charge?.balanceUsd);
  return { plan, baseKey, batch, bought, charge };
}
