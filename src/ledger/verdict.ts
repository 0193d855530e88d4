// What a dry run or a quote says about the profile's budget: the same check a real run makes
// (policy, then a hold taken and given straight back), as a verdict instead of a refusal.
import { PolicyError } from '../errors.js';
import { hasPolicy } from './budget.js';
import { policyNow, underBudget, type Ledger, type Spend } from './index.js';

export interface BudgetVerdict {
  ok: boolean;
  text: string;
  /** The refusal a real run would meet (exit 12), for the dry run to end with. */
  error: PolicyError | undefined;
}

/** undefined when the profile has no budget or policy (nothing to say). */
export async function budgetVerdict(ledger: Ledger | undefined, spend: Spend): Promise<BudgetVerdict | undefined> {
  if (!hasPolicy(await policyNow(ledger))) return undefined;
  try {
    await underBudget(ledger, spend, async () => undefined);
    return { ok: true, text: 'within the budget and policy', error: undefined };
  } catch (err) {
    if (err instanceof PolicyError) return { ok: false, text: err.message, error: err };
    throw err;
  }
}
