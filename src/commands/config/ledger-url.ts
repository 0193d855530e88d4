// `config set ledger-url postgres://…` and `config unset ledger-url`: the team's shared ledger. The
// database is tried (and its schema brought up to date) before anything is saved; the URL is kept
// without its password, which goes where API keys go (the OS keyring, or the 0600 config file).
import type { Context } from '../../context/index.js';
import { saveLedgerPassword, tellKeyNotes } from '../../context/stored-key.js';
import { LedgerUnavailableError } from '../../errors.js';
import { profileOf, shown } from './settings.js';

/** The profile's own money settings, named as typed: they stop counting once the team's do. */
const OWN_MONEY = [
  ['max-spend-per-run', 'maxSpendPerRun'],
  ['max-spend-per-day', 'maxSpendPerDay'],
  ['allowed-periods', 'allowedPeriods'],
  ['allowed-countries', 'allowedCountries'],
] as const;

export async function setLedgerUrl(ctx: Context, href: string): Promise<void> {
  const u = new URL(href);
  const password = u.password === '' ? undefined : decodeURIComponent(u.password);
  u.password = '';
  const { store, name } = await profileOf(ctx);
  const { openSharedStore } = await import('../../ledger/pg/index.js');
  const shared = openSharedStore(href);
  let version: number | undefined;
  try {
    const status = await shared.status(undefined, undefined);
    if (!status.reachable) {
      throw new LedgerUnavailableError(`${status.error ?? `cannot reach ${status.where}`}; ledger-url was not set`, {
        hint: 'check the host, port, database, user and password (and ?sslmode=require if the server wants TLS), then set it again',
      });
    }
    version = status.schemaVersion;
  } finally {
    await shared.close();
  }
  // The password first: a keyring that refuses leaves nothing half-saved.
  tellKeyNotes(ctx, await saveLedgerPassword(ctx, store, name, password));
  await store.setProfileSetting(name, 'ledgerUrl', u.href);
  ctx.notice(
    `ledger-url set for profile "${name}": ${u.href}${password ? ' (its password kept apart, never shown)' : ''}, schema version ${version}; spending, budgets, holds and purchase records are now the team's`,
  );
  const own = OWN_MONEY.flatMap(([key, field]) => {
    const v = store.profile(name)?.[field];
    return v === undefined ? [] : [`${key} ${shown(v)}`];
  });
  if (own.length > 0)
    ctx.warn(
      `this profile's own ${own.join(', ')} no longer count${own.length === 1 ? 's' : ''}: the team's settings in the shared ledger do; set them for the team with proxyctl config set ${OWN_MONEY.find(([k]) => own[0]!.startsWith(k))![0]} …`,
    );
  ctx.notice('copy what this machine spent before into it with proxyctl ledger push');
}

export async function unsetLedgerUrl(ctx: Context): Promise<void> {
  const { store, name } = await profileOf(ctx);
  // Out of the keyring (or the file) first, so the profile never names a password it lost.
  await saveLedgerPassword(ctx, store, name, undefined);
  await store.setProfileSetting(name, 'ledgerUrl', undefined);
  ctx.notice(`ledger-url removed from profile "${name}": this machine's own ledger is used again`);
}
