// The exact bytes and statuses a sandbox proxy refuses with, as clients (and `units check`) see
// them: SOCKS5 method and auth replies, the loopback-only rule.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buy, sandboxWithEcho, viaConnect, viaHttp, viaSocks } from '../helpers/index.js';

const t = sandboxWithEcho();

/** Writes `bytes` to the unit's port and resolves with everything it answered before closing. */
function exchange(u: { ip: string; port: number }, bytes: number[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: u.ip, port: u.port });
    const got: number[] = [];
    s.on('data', (d: Buffer) => got.push(...d));
    s.on('error', reject);
    s.on('close', () => resolve(got));
    s.write(Buffer.from(bytes));
  });
}

describe('socks5 on the wire (RFC 1928/1929)', () => {
  it('a client offering no username/password method gets 0xFF and the connection closes', async () => {
    const u = (await buy(t.sb)).body;
    expect(await exchange(u, [0x05, 0x01, 0x00])).toEqual([0x05, 0xff]);
  });

  it('wrong credentials get auth status 0x01 and the connection closes', async () => {
    const u = (await buy(t.sb)).body;
    const user = [...Buffer.from(u.credentials.username)];
    const pass = [...Buffer.from('not-the-password')];
    expect(await exchange(u, [0x05, 0x01, 0x02, 0x01, user.length, ...user, pass.length, ...pass])).toEqual([0x05, 0x02, 0x01, 0x01]);
  });
});

describe('loopback destinations only', () => {
  it('socks5 answers 0x02 (not allowed), http 403, for a destination off loopback', async () => {
    const s = (await buy(t.sb)).body;
    await expect(viaSocks(s, 'http://192.0.2.1:80/')).rejects.toThrow(/NotAllowed/);
    const h = (await buy(t.sb, { protocol: 'http' })).body;
    expect((await viaHttp(h, 'http://192.0.2.1/')).status).toBe(403);
    expect((await viaConnect(h, 'http://192.0.2.1:8080/')).status).toBe(403);
  });
});
