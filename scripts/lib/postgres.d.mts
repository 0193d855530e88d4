// Types for the tests that import scripts/lib/postgres.mjs (through test/helpers/postgres.ts).
export interface Postgres {
  /** postgres://proxyctl:PASSWORD@127.0.0.1:PORT/proxyctl: a role that logs in by password. */
  url: string;
  password: string;
  port: number;
  /** A URL to a new, empty database of its own. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL as the superuser (over the cluster's socket) in `db`; its output, tuples only. */
  sql(text: string, db?: string): Promise<string>;
  /** Stops the server (fast: open sessions are ended); start() starts it again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}
/** Why PostgreSQL cannot be run here, or undefined when it can. */
export declare function postgresMissing(): string | undefined;
/**
 * Starts a cluster of its own. Call postgresMissing() first. With `tls` (PEM), the server speaks TLS
 * with that certificate and refuses TCP logins without it.
 */
export declare function startPostgres(options?: { tls?: { cert: string; key: string } }): Promise<Postgres>;
