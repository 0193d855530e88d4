// `proxyctl ledger status`: the store in use (this machine's files, or the shared database and where
// its URL came from), its schema version, whether it can be reached and how many debits it holds;
// for a shared ledger, how many of this machine's debits it lacks (`ledger push` copies them).
// Prints what it found either way; exit 9 when a shared ledger cannot be reached.
import type { Input } from './status.command.js';
import { emit, show, type Result } from '../../kit/action.js';
import { AuthMissingError, ExitCode, LedgerUnavailableError } from '../../errors.js';
import { fileLedger } from '../../ledger/index.js';
import { ledgerUrlOf, localLedgerDir, sharedStoreOf } from '../../context/shared-store.js';
import type { Context } from '../../context/index.js';

const FIELDS = ['store', 'where', 'from', 'reachable', 'schemaVersion', 'knownVersion', 'debits', 'notPushed', 'error'];

/** The account the API key speaks for; undefined without a key (the store is still told). */
async function accountOf(ctx: Context): Promise<string | undefined> {
  try {
    return (await ctx.api()).accountId();
  } catch (err) {
    if (err instanceof AuthMissingError) return undefined;
    throw err;
  }
}

export default async function handler({ ctx }: Input): Promise<Result> {
  const [url, shared, account] = await Promise.all([ledgerUrlOf(ctx), sharedStoreOf(ctx), accountOf(ctx)]);
  const local = account ? fileLedger(localLedgerDir(ctx), account).local : undefined;
  if (!shared || !url) {
    const debits = local ? (await local.read()).length : undefined;
    return show(
      { store: 'files', where: local?.path ?? localLedgerDir(ctx), from: 'this machine', reachable: true, debits },
      { fields: FIELDS },
    );
  }
  const status = await shared.status(account, local);
  await emit(ctx, show({ ...status, from: url.from }, { fields: FIELDS }));
  if (!status.reachable)
    throw new LedgerUnavailableError(`the shared ledger ${status.where} cannot be reached: ${status.error ?? 'no answer'}`, {
      hint: "nothing can be charged until it is back (reads such as units list and me still work); proxyctl config unset ledger-url goes back to this machine's own ledger",
    });
  if (status.notPushed)
    ctx.notice(
      `${status.notPushed} debit${status.notPushed === 1 ? '' : 's'} of this machine are not in it yet: proxyctl ledger push copies them`,
    );
  return ExitCode.ok;
}
