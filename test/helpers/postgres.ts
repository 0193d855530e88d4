// A real PostgreSQL server of the test file's own (scripts/lib/postgres.mjs, shared with
// bench/ledger.mjs): a temporary cluster on 127.0.0.1 and a free port, a role that logs in by
// password, stop() and start() for a database that goes away mid-run. Tests skip where
// postgresMissing() says why (CI installs Debian's postgresql package: scripts/ci-shells.mjs).
export { type Postgres, postgresMissing, startPostgres } from '../../scripts/lib/postgres.mjs';
