// Budget holds in the shared database, for every machine of the team at once. The account's lock
// is a transaction-scoped advisory lock (held until COMMIT or ROLLBACK, and by nobody once the
// connection is gone), so a hold is taken by one run at a time across machines, against the
// debits and holds of all of them.
//
// A hold's run is alive while the database says so, never by a timer on another machine's clock:
// the run keeps a session-level advisory lock (lock1, lock2) on a connection of its own, which the
// server drops the moment that connection ends (kill -9 closes the socket; a lost connection ends
// the session), and renews a lease (`lease_until`, on the database's clock) every few seconds, so a
// machine that vanished without closing anything stops counting as alive within LEASE_S.
import { randomInt } from 'node:crypto';
import type { HoldChange, HoldRecord, HoldStore, HoldsView, Liveness, Spending } from '../store.js';
import { LOCK_SPACE, LOCK_WAIT, lostMidRun, unavailable, type Db } from './db.js';

/** Seconds a hold's lease lasts on the database's clock; renewed every RENEW_MS. */
const LEASE_S = 30;
const RENEW_MS = 5000;
/** The two-key advisory lock under LOCK_SPACE for the account's hold-taking: a stable hash of its name. */
const ACCOUNT_LOCK = 'SELECT pg_advisory_xact_lock($1, hashtext($2))';

function viewOn(q: Db['query'], account: string): HoldsView {
  return {
    async records() {
      const rows = await q<{ rec: HoldRecord; alive: boolean }>(
        `SELECT h.rec, (h.lease_until > now() AND EXISTS (
            SELECT 1 FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND l.classid = h.lock1::oid AND l.objid = h.lock2::oid)) AS alive
         FROM proxyctl_holds h WHERE h.account = $1`,
        [account],
      );
      return rows.map((r) => ({ rec: { ...r.rec, refs: Array.isArray(r.rec.refs) ? r.rec.refs : [] }, alive: r.alive === true }));
    },
    async spending(since): Promise<Spending> {
      // One statement, so both figures are of one moment.
      const rows = await q<{ spent: number | null; entered: Record<string, number> | null }>(
        `SELECT
           (SELECT sum(price) FROM proxyctl_debits WHERE account = $1 AND at_ms > $2) AS spent,
           (SELECT json_object_agg(hold, s) FROM (
              SELECT hold, sum(price) AS s FROM proxyctl_debits
              WHERE account = $1 AND hold IN (SELECT id FROM proxyctl_holds WHERE account = $1)
              GROUP BY hold) x) AS entered`,
        [account, since],
      );
      const r = rows[0];
      return { spent: Number(r?.spent ?? 0), enteredBy: new Map(Object.entries(r?.entered ?? {}).map(([k, v]) => [k, Number(v)])) };
    },
  };
}

export function pgHolds(db: Db, account: string): HoldStore {
  /** The lock keys of the holds this process keeps alive, until their record is written. */
  const keys = new Map<string, [number, number]>();

  const change = (q: Db['query']) => async (c: HoldChange) => {
    if (c.remove?.length) await q('DELETE FROM proxyctl_holds WHERE account = $1 AND id = ANY($2)', [account, [...c.remove]]);
    for (const rec of c.put ?? []) {
      const [lock1, lock2] = keys.get(rec.id) ?? [0, 0];
      await q(
        `INSERT INTO proxyctl_holds (id, account, rec, lock1, lock2, lease_until)
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
         ON CONFLICT (id) DO UPDATE SET rec = EXCLUDED.rec`,
        [rec.id, account, JSON.stringify(rec), lock1, lock2, LEASE_S],
      );
    }
  };

  return {
    where: db.where,
    async locked(warn, fn) {
      const waiting = warn
        ? setTimeout(() => warn(`waiting for the budget lock in ${db.where}: another proxyctl run of the team is taking its hold`), 5000)
        : undefined;
      waiting?.unref();
      try {
        return await db.transaction(async (q) => {
          await q(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
          await q(ACCOUNT_LOCK, [LOCK_SPACE, account]);
          if (waiting) clearTimeout(waiting);
          return fn(viewOn(q, account), change(q));
        });
      } finally {
        if (waiting) clearTimeout(waiting);
      }
    },
    view: () => viewOn((t, v) => db.query(t, v), account),
    async keepAlive(id): Promise<Liveness> {
      await db.ready();
      const pg = await db.pg();
      const lost = new AbortController();
      const client = new pg.Client({ connectionString: db.url, application_name: 'proxyctl hold', connectionTimeoutMillis: 10_000 });
      let ended = false;
      const fail = (err: unknown) => {
        if (!ended && !lost.signal.aborted) lost.abort(lostMidRun(db.where, err));
      };
      client.on('error', fail);
      client.on('end', () => fail(new Error("the connection that keeps this run's hold alive ended")));
      const lock: [number, number] = [randomInt(1, 2 ** 31 - 1), randomInt(1, 2 ** 31 - 1)];
      try {
        await client.connect();
        await client.query('SELECT pg_advisory_lock($1, $2)', lock);
      } catch (err) {
        ended = true;
        await client.end().catch(() => undefined);
        throw unavailable(db.where, err);
      }
      keys.set(id, lock);
      // Renewed on the database's clock; a renewal that fails means the hold may no longer be seen alive.
      const renew = setInterval(() => {
        client.query('UPDATE proxyctl_holds SET lease_until = now() + make_interval(secs => $2) WHERE id = $1', [id, LEASE_S]).catch(fail);
      }, RENEW_MS);
      renew.unref();
      return {
        lost: lost.signal,
        release: async () => {
          ended = true;
          clearInterval(renew);
          keys.delete(id);
          // Ending the session ends its lock too.
          await client.end().catch(() => undefined);
        },
      };
    },
    async forget() {
      // Nothing kept outside the table: a session's lock ends with it.
    },
  };
}
