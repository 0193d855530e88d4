// --state FILE: atomic writes after every mutation, so a restart (even after kill -9) loses no
// acknowledged purchase.
import { execa } from 'execa';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, call, cleanEnv, startFastSandbox } from '../helpers/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence', () => {
  it('a restarted sandbox has the units, balance, webhook and username of the previous one', async () => {
    const file = join(dir, 'a.json');
    const a = await startFastSandbox({ stateFile: file });
    const key = randomUUID();
    const u = (await call(a, 'POST', '/units', { body: { poolId: 'US-11', period: '7d' }, headers: { 'idempotency-key': key } })).body;
    await call(a, 'PUT', '/me/proxy-username', { body: { proxyUsername: 'keepme' } });
    await call(a, 'PATCH', '/webhook', { body: { url: 'https://hooks.example.com/x' } });
    const balance = (await call(a, 'GET', '/account')).body.balanceUsd;
    await a.close();
    const b = await startFastSandbox({ stateFile: file, balance: 5 });
    try {
      expect((await call(b, 'GET', `/units/${u.proxyRef}`)).body).toMatchObject({
        proxyRef: u.proxyRef,
        credentials: u.credentials,
        expiresAt: u.expiresAt,
      });
      expect((await call(b, 'GET', '/account')).body.balanceUsd).toBe(balance);
      expect((await call(b, 'GET', '/webhook')).body.url).toBe('https://hooks.example.com/x');
      const replay = await call(b, 'POST', '/units', { body: { poolId: 'US-11', period: '7d' }, headers: { 'idempotency-key': key } });
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(u);
      expect((await call(b, 'GET', '/account')).body.balanceUsd).toBe(balance);
      const next = (await call(b, 'POST', '/units', { body: { poolId: 'US-11', period: '3h' } })).body;
      expect(next.proxyRef).not.toBe(u.proxyRef);
      expect(next.credentials.username).toBe('keepme');
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('kill -9 right after an acknowledged purchase loses nothing', async () => {
    const file = join(dir, 'k.json');
    const start = async () => {
      const child = execa('node', [BIN, 'sandbox', '--port', '0', '--json', '--state', file], { reject: false, env: cleanEnv({}) });
      const line = await new Promise<string>((resolve) => child.stdout!.once('data', (c: Buffer) => resolve(c.toString().split('\n')[0]!)));
      return { child, info: JSON.parse(line) as { baseUrl: string; apiKey: string } };
    };
    const { child, info } = await start();
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${info.baseUrl}/api/reseller/v1/units`, {
        method: 'POST',
        headers: { 'x-api-key': info.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ poolId: 'GB-11', period: '24h' }),
      });
      expect(r.status).toBe(201);
      refs.push(((await r.json()) as { proxyRef: string }).proxyRef);
    }
    child.kill('SIGKILL');
    await child;
    expect(existsSync(file)).toBe(true);
    const again = await start();
    try {
      const r = await fetch(`${again.info.baseUrl}/api/reseller/v1/units`, { headers: { 'x-api-key': again.info.apiKey } });
      const body = (await r.json()) as { data: { proxyRef: string }[] };
      expect(body.data.map((u) => u.proxyRef)).toEqual(refs);
    } finally {
      again.child.kill('SIGTERM');
      await again.child;
    }
  });
});
