// The address of a team's shared ledger (`config set ledger-url`, PROXYCTL_LEDGER_URL, the SDK's
// `ledger: { url }`), checked before anything is opened; the database itself is src/ledger/pg/.
import { UsageError } from '../errors.js';

/** postgres:// or postgresql://, with a host and a database; exit 2 otherwise. */
export function parseLedgerUrl(raw: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new UsageError(`${what} must be a PostgreSQL URL, e.g. postgres://user:password@db.example.com:5432/proxyctl`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new UsageError(`${what} must start with postgres:// or postgresql://, got ${u.protocol}//`);
  if (!u.hostname || u.pathname.replace(/^\//, '') === '')
    throw new UsageError(`${what} needs a host and a database name, e.g. postgres://user:password@db.example.com:5432/proxyctl`);
  return u;
}
