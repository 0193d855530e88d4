// A real PostgreSQL server of a test file's (or a benchmark's) own: a temporary cluster (initdb,
// pg_ctl) on 127.0.0.1 and a free port, with a role that logs in by password over TCP, as a team's
// database would. The server refuses to run as root, so as root it runs as the `postgres` user
// (runuser). Binaries come from Debian's `postgresql` package (/usr/lib/postgresql/<v>/bin); CI
// installs it (scripts/ci-shells.mjs). Where they are missing, postgresMissing() says why.
// test/helpers/postgres.ts re-exports this for the tests; bench/ledger.mjs uses it directly.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const asRoot = userInfo().uid === 0;
const ROLE = 'proxyctl';

/** The directory of initdb and pg_ctl: the newest Debian-packaged server, else whatever PATH has. */
function binDir() {
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

/** Why PostgreSQL cannot be run here, or undefined when it can. */
export function postgresMissing() {
  const bin = binDir();
  if (!bin) return 'PostgreSQL (initdb, pg_ctl) is not installed here (apt-get install postgresql; CI installs it)';
  if (!existsSync(join(bin, 'psql'))) return 'psql is not installed here (apt-get install postgresql-client; CI installs it)';
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

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster of its own. Call postgresMissing() first. With `tls` ({ cert, key }, PEM), the
 * server speaks TLS with that certificate and refuses TCP logins without it.
 */
export async function startPostgres(options = {}) {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'proxyctl-pg-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'socket');
  const password = 's3cret-Pw+/x';
  const port = await freePort();
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  chmodSync(dir, 0o700);
  const as = async (file, args, input) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    const p = run(cmd, argv, { cwd: dir, timeout: 60_000 });
    if (input !== undefined) p.child.stdin.end(input);
    return (await p).stdout;
  };
  await as(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  await as('mkdir', ['-p', socket]);
  let opts = `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  if (options.tls) {
    // The key must be the server user's own and private; TCP logins only over TLS.
    for (const [name, text] of [
      ['server.crt', options.tls.cert],
      ['server.key', options.tls.key],
    ])
      await as('sh', ['-c', `umask 077 && cat > ${join(data, name)}`], text);
    await as('sh', [
      '-c',
      `printf 'local all all trust\\nhostssl all all 127.0.0.1/32 scram-sha-256\\nhostnossl all all 127.0.0.1/32 reject\\n' > ${join(data, 'pg_hba.conf')}`,
    ]);
    opts += ' -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key';
  }
  const start = () => as(join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = () => as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  await start();
  const sql = (text, db = 'postgres') =>
    as(join(bin, 'psql'), ['-h', socket, '-p', String(port), '-U', 'postgres', '-d', db, '-tAq', '-v', 'ON_ERROR_STOP=1', '-c', text]);
  await sql(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${password}'`);
  await sql(`CREATE DATABASE ${ROLE} OWNER ${ROLE}`);
  const urlOf = (db) => `postgres://${ROLE}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
  return {
    url: urlOf(ROLE),
    password,
    port,
    async createDatabase(name) {
      await sql(`CREATE DATABASE ${name} OWNER ${ROLE}`);
      return urlOf(name);
    },
    sql,
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
