// The shared ledger over TLS when its URL asks for it (issue 37): a PostgreSQL server of the file's
// own that refuses TCP logins without TLS, its certificate signed by a test CA. The URL without
// sslmode is refused (exit 9, nothing saved); with sslmode=verify-full and the CA, proxyctl connects,
// migrates and charges through it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasOpenssl, makeTestCertificates, type TestCertificates } from '../helpers/tls.js';
import { type Kit, needing, type Postgres, pickPools, postgresMissing, startKit, startPostgres } from '../helpers/index.js';

const missing =
  postgresMissing() ?? ((await hasOpenssl()) ? undefined : 'openssl is not installed here (apt-get install openssl; CI installs it)');
const dir = mkdtempSync(join(tmpdir(), 'proxyctl-pg-tls-'));
let certs: TestCertificates;
let pg: Postgres;
let kit: Kit;

beforeAll(async () => {
  if (missing) return;
  certs = await makeTestCertificates(dir);
  pg = await startPostgres({ tls: certs.byTestCa });
  kit = await startKit({ balance: 100 });
}, 120_000);
afterAll(async () => {
  await kit?.close();
  await pg?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)(needing('the shared ledger over TLS', missing), () => {
  it('a URL without sslmode is refused by a server that wants TLS; with sslmode=verify-full and the CA it charges through it', async () => {
    const plain = await kit.run(['config', 'set', 'ledger-url', pg.url]);
    expect(plain.exitCode).toBe(9);
    expect(String(plain.stderr)).toContain('no encryption');
    expect(String(plain.stderr)).toContain('ledger-url was not set');
    expect(JSON.parse(String((await kit.run(['ledger', 'status', '--json'])).stdout))).toMatchObject({ store: 'files' });

    const tls = `${pg.url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(certs.caFile)}`;
    const set = await kit.run(['config', 'set', 'ledger-url', tls]);
    expect(set.exitCode, String(set.stderr)).toBe(0);
    const [pool] = await pickPools(kit);
    const bought = await kit.run(['units', 'create', '--pool', pool!.poolId, '--period', '24h', '--json']);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    const status = JSON.parse(String((await kit.run(['ledger', 'status', '--json'])).stdout)) as Record<string, unknown>;
    expect(status).toMatchObject({ store: 'postgres', reachable: true, schemaVersion: 1, debits: 1 });
  }, 60_000);
});
