// A real PostgreSQL server of the test file's own: a temporary cluster (initdb, pg_ctl) on
// 127.0.0.1 and a free port, with a role that logs in by password over TCP, as a team's database
// would. The server refuses to run as root, so as root it runs as the `postgres` user (runuser).
// Binaries come from Debian's `postgresql` package (/usr/lib/postgresql/<v>/bin); CI installs it
// (scripts/ci-shells.mjs). Where they are missing, postgresMissing() says why and the tests skip.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { notInstalled } from './tools.js';

const run = promisify(execFile);

/** The directory of initdb and pg_ctl: the newest Debian-packaged server, else whatever PATH has. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')) && existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'initdb'))) return dir;
  }
  return undefined;
}

const asRoot = userInfo().uid === 0;

/** Why the PostgreSQL tests skip here, or undefined when they can run. */
export function postgresMissing(): string | undefined {
  if (!binDir()) return notInstalled('PostgreSQL (initdb, pg_ctl)', 'postgresql');
  if (!existsSync(join(binDir()!, 'psql'))) return notInstalled('psql', 'postgresql-client');
  if (asRoot) {
    // The server refuses to run as root: it runs as the postgres user the package creates.
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
      execFileSync('sh', ['-c', 'command -v runuser'], { stdio: 'ignore' });
    } catch {
      return 'no postgres user, or no runuser, to run the server as (the server refuses to run as root; apt-get install postgresql)';
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Postgres {
  /** postgres://proxyctl:PASSWORD@127.0.0.1:PORT/DB: a role that logs in by password. */
  url: string;
  password: string;
  port: number;
  /** A URL to a new, empty database of its own. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL as the superuser (over the cluster's socket) in `db`; its output, tuples only. */
  sql(text: string, db?: string): Promise<string>;
  /** Stops the server (fast: open sessions are ended) and starts it again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const ROLE = 'proxyctl';

/** Starts a cluster of its own. Call postgresMissing() first. */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'proxyctl-pg-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'socket');
  const password = 's3cret-Pw+/x';
  const port = await freePort();
  if (asRoot) {
    const { uid, gid } = await idOf('postgres');
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const as = async (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    return (await run(file, argv, { cwd: dir, timeout: 60_000 })).stdout;
  };
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-sync']);
  await run(asRoot ? 'runuser' : 'mkdir', asRoot ? ['-u', 'postgres', '--', 'mkdir', '-p', socket] : ['-p', socket]);
  const opts = `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  const start = () => as('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = () => as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  await start();
  const psql = (text: string, db = 'postgres') =>
    as('psql', ['-h', socket, '-p', String(port), '-U', 'postgres', '-d', db, '-tAq', '-v', 'ON_ERROR_STOP=1', '-c', text]);
  await psql(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${password}'`);
  await psql(`CREATE DATABASE ${ROLE} OWNER ${ROLE}`);
  const urlOf = (db: string) => `postgres://${ROLE}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  return {
    url: urlOf(ROLE),
    password,
    port,
    async createDatabase(name) {
      await psql(`CREATE DATABASE ${name} OWNER ${ROLE}`);
      return urlOf(name);
    },
    sql: psql,
    stop: async () => {
      await stop();
    },
    start: async () => {
      await start();
    },
    close: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function idOf(user: string): Promise<{ uid: number; gid: number }> {
  const uid = Number((await run('id', ['-u', user])).stdout.trim());
  const gid = Number((await run('id', ['-g', user])).stdout.trim());
  return { uid, gid };
}
