// `proxyctl ledger push`: copies this machine's journal (debits and customer tags) into the shared
// ledger. Each debit is known by its id, so one already there merges with it and counts once: push
// as often as you like (after setting ledger-url, or after the database was down mid-run).
import type { Input } from './push.command.js';
import { show, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { fileLedger } from '../../ledger/index.js';
import { localLedgerDir, sharedStoreOf } from '../../context/shared-store.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const shared = await sharedStoreOf(ctx);
  if (!shared)
    throw new UsageError('no shared ledger is set: there is nowhere to push to', {
      hint: 'proxyctl config set ledger-url postgres://user:password@host:5432/db (or set PROXYCTL_LEDGER_URL)',
    });
  const account = (await ctx.api()).accountId();
  const r = await shared.push(account, fileLedger(localLedgerDir(ctx), account).local);
  ctx.notice(
    `copied ${r.added} of ${r.debits} debit${r.debits === 1 ? '' : 's'} from ${r.from} into ${r.where} (the others were there already)${
      r.tags > 0 ? `, and ${r.tagsAdded} of ${r.tags} customer tags` : ''
    }`,
  );
  return show(r, { fields: ['where', 'from', 'debits', 'added', 'tags', 'tagsAdded'] });
}
