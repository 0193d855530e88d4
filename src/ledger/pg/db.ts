// The team's PostgreSQL database: a small pool of connections (node-postgres, loaded here only, and
// only when a profile or PROXYCTL_LEDGER_URL names a shared ledger), its schema created and brought
// up to date by versioned migrations, and every failure turned into a LedgerUnavailableError (exit 9)
// naming the database without its password.
import type { Pool, PoolClient } from 'pg';
import { CliError, LedgerUnavailableError } from '../../errors.js';
import { MIGRATIONS } from './schema.js';

/** The advisory-lock namespace of proxyctl (its two-key locks: this, then a key of its own). */
export const LOCK_SPACE = 0x70726f78; // "prox"
/** Key under LOCK_SPACE that migrations run under, so two machines starting at once migrate once. */
const MIGRATION_LOCK = 0;
/** The advisory-lock namespace of one setting's changes (its second key: a hash of account and name). */
export const SETTINGS_SPACE = 0x70727374; // "prst"
/** How long a run waits for a lock another machine holds before it gives up (exit 9, nothing changed). */
export const LOCK_WAIT = '30s';

export interface Db {
  /** The URL without its password, for messages. */
  readonly where: string;
  /** The full URL (password included): for connections of its own (a hold's liveness). Never printed. */
  readonly url: string;
  query<R extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
  /** Runs `fn` in one transaction on one connection (rolled back when it throws). */
  transaction<T>(fn: (q: Db['query']) => Promise<T>): Promise<T>;
  /** The schema version the database is at (migrating it first when this proxyctl knows a newer one). */
  ready(): Promise<number>;
  /** node-postgres itself, for a connection of one's own. */
  pg(): Promise<typeof import('pg').default>;
  close(): Promise<void>;
}

/** The URL as it may be shown: the password replaced, nothing else changed. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the shared ledger (ledger-url)';
  }
}

export const LATEST_VERSION = MIGRATIONS.length;

/** A failure of the database, as the user sees it: what, where, and what to do. */
const why = (err: unknown) => {
  const e = err as { message?: string; code?: string };
  return e.code && !String(e.message).includes(e.code) ? `${e.message} (${e.code})` : String(e.message ?? err);
};

export function unavailable(where: string, err: unknown): LedgerUnavailableError {
  if (err instanceof LedgerUnavailableError) return err;
  return new LedgerUnavailableError(`the shared ledger ${where} cannot be used: ${why(err)}`, {
    hint: "start the database or fix ledger-url (proxyctl ledger status tells what is wrong); proxyctl config unset ledger-url goes back to this machine's own ledger",
    cause: err,
  });
}

/**
 * The shared ledger lost while a run was charging (its hold's connection ended, or a debit could not
 * be entered): the run starts nothing more. `kept` says what this machine kept in its own journal.
 */
export function lostMidRun(where: string, err: unknown, kept?: string): LedgerUnavailableError {
  const cause = err instanceof LedgerUnavailableError ? err.message.replace(/^the shared ledger \S+ cannot be used: /, '') : why(err);
  return new LedgerUnavailableError(
    `the shared ledger ${where} was lost mid-run (${cause}): this run stopped charging; ${
      kept ?? "any debit it could not enter there is kept in this machine's journal"
    }`,
    {
      hint: 'once the database is back: proxyctl ledger push (copies what this machine kept, each debit once), then the same command with its --idempotency-key finishes the batch without buying twice',
      cause: err,
    },
  );
}

export function openDb(url: string): Db {
  const where = redact(url);
  let pool: Promise<Pool> | undefined;
  let migrated: Promise<number> | undefined;
  const load = async () => (await import('pg')).default;
  const open = () =>
    (pool ??= load().then((pg) => {
      const p = new pg.Pool({
        connectionString: url,
        max: 4,
        connectionTimeoutMillis: 10_000,
        idleTimeoutMillis: 2000,
        // The CLI exits when its work is done, not when the pool's idle connections time out.
        allowExitOnIdle: true,
        application_name: 'proxyctl',
      });
      // An idle connection the server dropped (restarted, killed) is an 'error' on the pool: the next
      // query opens another one; without a listener it would crash the process.
      p.on('error', () => undefined);
      return p;
    }));

  const run = async <T>(fn: (c: PoolClient) => Promise<T>): Promise<T> => {
    let client: PoolClient;
    try {
      client = await (await open()).connect();
    } catch (err) {
      throw unavailable(where, err);
    }
    let broken: unknown;
    try {
      return await fn(client);
    } catch (err) {
      // proxyctl's own refusals (a budget, a policy) pass as they are; the database's failures are said as such.
      if (err instanceof CliError) throw err;
      broken = err;
      throw unavailable(where, err);
    } finally {
      // A connection that failed mid-query is not given back to the pool.
      client.release(broken instanceof Error && !('severity' in broken) ? broken : undefined);
    }
  };

  const queryOn =
    (c: PoolClient) =>
    async <R extends object>(text: string, values?: unknown[]): Promise<R[]> =>
      (await c.query(text, values as unknown[])).rows as R[];

  const migrate = async (): Promise<number> => {
    const known = await run(async (c) => {
      try {
        const r = await c.query('SELECT max(version) AS v FROM proxyctl_schema');
        return Number(r.rows[0]?.v ?? 0);
      } catch (err) {
        if ((err as { code?: string }).code === '42P01') return 0; // no such table: an empty database
        throw err;
      }
    });
    if (known > LATEST_VERSION) {
      throw new LedgerUnavailableError(
        `the shared ledger ${where} is at schema version ${known}, newer than this proxyctl knows (${LATEST_VERSION}); nothing was changed`,
        { code: 'ledger_schema_newer', hint: 'update proxyctl on this machine to the version the rest of the team uses' },
      );
    }
    if (known === LATEST_VERSION) return known;
    // Two machines starting at once: the lock lets one migrate; the other then finds it done.
    return run(async (c) => {
      await c.query('BEGIN');
      try {
        await c.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_SPACE, MIGRATION_LOCK]);
        await c.query(
          'CREATE TABLE IF NOT EXISTS proxyctl_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
        );
        const r = await c.query('SELECT coalesce(max(version), 0) AS v FROM proxyctl_schema');
        const at = Number(r.rows[0]?.v ?? 0);
        for (let v = at + 1; v <= LATEST_VERSION; v++) {
          await c.query(MIGRATIONS[v - 1]!);
          await c.query('INSERT INTO proxyctl_schema (version) VALUES ($1)', [v]);
        }
        await c.query('COMMIT');
        return Math.max(at, LATEST_VERSION);
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  };

  const ready = () =>
    (migrated ??= migrate().catch((err: unknown) => {
      migrated = undefined;
      throw unavailable(where, err);
    }));

  const db: Db = {
    where,
    url,
    async query(text, values) {
      await ready();
      return run((c) => queryOn(c)(text, values));
    },
    async transaction(fn) {
      await ready();
      return run(async (c) => {
        await c.query('BEGIN');
        try {
          const out = await fn(queryOn(c));
          await c.query('COMMIT');
          return out;
        } catch (err) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      });
    },
    ready,
    pg: load,
    async close() {
      const p = pool;
      pool = undefined;
      await (await p)?.end().catch(() => undefined);
    },
  };
  return db;
}
