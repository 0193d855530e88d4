// The shared store of a team (`config set ledger-url postgres://…`): the journal, the budget holds,
// the purchase records and the money settings of an account in one PostgreSQL database that every
// machine of the team uses. Loaded only when a ledger URL is set (context/shared-store.ts).
import type { AsyncCache } from '../../api/client.js';
import { CACHE_MAX_AGE_MS } from '../../config/store.js';
import type { Journal } from '../journal.js';
import type { SettingsSource, SharedStore } from '../store.js';
import { LATEST_VERSION, LOCK_WAIT, openDb, SETTINGS_SPACE, type Db } from './db.js';
import { pgHolds } from './holds.js';
import { insertDebits, insertTags, mergedRows, PgJournal } from './journal.js';

export function openSharedStore(url: string): SharedStore {
  const db: Db = openDb(url);
  return {
    where: db.where,
    account(account, local) {
      return { journal: new PgJournal(db, account, local), holds: pgHolds(db, account), settings: pgSettings(db, account) };
    },
    records: (local) => pgRecords(db, local),
    async status(account, local) {
      const base = { store: 'postgres' as const, where: db.where, knownVersion: LATEST_VERSION };
      try {
        const schemaVersion = await db.ready();
        if (!account) return { ...base, reachable: true, schemaVersion };
        const journal = new PgJournal(db, account, local as Journal);
        const n = await db.query<{ n: string }>('SELECT count(*) AS n FROM proxyctl_debits WHERE account = $1', [account]);
        let notPushed: number | undefined;
        if (local) {
          const ids = [...new Set((await local.lines()).debits.map((d) => d.id))];
          notPushed = ids.length - (await journal.known(ids));
        }
        return { ...base, reachable: true, schemaVersion, debits: Number(n[0]?.n ?? 0), notPushed };
      } catch (err) {
        return { ...base, reachable: false, schemaVersion: undefined, error: (err as Error).message };
      }
    },
    async push(account, local) {
      const { debits, tags } = await local.lines();
      const rows = mergedRows(debits);
      const [added, tagsAdded] = await db.transaction(async (q) => [
        await insertDebits(q, account, rows),
        await insertTags(q, account, tags),
      ]);
      return { where: db.where, from: local.path, debits: rows.length, added, tags: tags.length, tagsAdded };
    },
    close: () => db.close(),
  };
}

/**
 * The team's money settings of an account, by name. A change of one is made under an advisory lock
 * of the account and name, in one transaction with its read, so machines changing one setting at
 * once (two customers' prices) take turns and each keeps what the others wrote.
 */
function pgSettings(db: Db, account: string): SettingsSource {
  const update = <T>(name: string, change: (value: T | undefined) => T | undefined) =>
    db.transaction(async (q) => {
      await q(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
      await q('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SETTINGS_SPACE, `${account}\n${name}`]);
      const rows = await q<{ value: T }>('SELECT value FROM proxyctl_settings WHERE account = $1 AND name = $2', [account, name]);
      const next = change(rows[0]?.value);
      if (next === undefined) {
        await q('DELETE FROM proxyctl_settings WHERE account = $1 AND name = $2', [account, name]);
        return;
      }
      await q(
        `INSERT INTO proxyctl_settings (account, name, value) VALUES ($1, $2, $3)
         ON CONFLICT (account, name) DO UPDATE SET value = EXCLUDED.value`,
        [account, name, JSON.stringify(next)],
      );
    });
  return {
    where: db.where,
    shared: true,
    async read() {
      const rows = await db.query<{ name: string; value: unknown }>('SELECT name, value FROM proxyctl_settings WHERE account = $1', [
        account,
      ]);
      return Object.fromEntries(rows.map((r) => [r.name, r.value]));
    },
    // A whole value takes its turn too: it never lands between another run's read and write.
    set: (name, value) => update(name, () => value),
    update,
  };
}

/**
 * Purchase records in the database, so a batch started on one machine resumes on another with its
 * key; each is written to this machine's records too, and read from there when the database has
 * none (one this machine wrote while the database was down).
 */
function pgRecords(db: Db, local: AsyncCache): AsyncCache {
  return {
    async get<T>(key: string) {
      let rows: { value: T; at_ms: number }[];
      try {
        rows = await db.query<{ value: T; at_ms: number }>('SELECT value, at_ms FROM proxyctl_records WHERE key = $1', [key]);
      } catch {
        // Not reachable: what this machine knows (a charge is refused anyway, before anything is bought).
        return local.get<T>(key);
      }
      const row = rows[0];
      if (row && Date.now() - Number(row.at_ms) < CACHE_MAX_AGE_MS) return row.value;
      return local.get<T>(key);
    },
    async set(key, value) {
      await local.set(key, value);
      await db.query(
        `INSERT INTO proxyctl_records (key, value, at_ms) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, at_ms = EXCLUDED.at_ms`,
        [key, JSON.stringify(value), Date.now()],
      );
    },
  };
}
