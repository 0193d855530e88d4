// The sandbox's proxies against curl, the client customers reach for first (skipped without curl, saying so; CI installs it).
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { buy, needing, notInstalled, sandboxWithEcho } from '../helpers/index.js';

const hasCurl = (await execa('curl', ['--version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const t = sandboxWithEcho();

async function curl(args: string[]) {
  const r = await execa('curl', ['-s', '--max-time', '20', '-w', '\\n%{http_code}', ...args, t.echo], { reject: false });
  const lines = String(r.stdout).split('\n');
  const code = Number(lines.pop());
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(lines.join('\n'));
  } catch {
    body = undefined;
  }
  return { exitCode: r.exitCode, code, body };
}

describe.skipIf(!hasCurl)(needing('curl through sandbox units', hasCurl ? undefined : notInstalled('curl', 'curl')), () => {
  it('curl --socks5 with the unit credentials reaches the echo from the unit address; wrong ones fail', async () => {
    const u = (await buy(t.sb)).body;
    const ok = await curl(['--socks5', `${u.ip}:${u.port}`, '--proxy-user', `${u.credentials.username}:${u.credentials.password}`]);
    expect(ok).toMatchObject({ exitCode: 0, code: 200, body: { sourceAddress: u.ip, method: 'GET', url: '/echo' } });
    const bad = await curl(['--socks5', `${u.ip}:${u.port}`, '--proxy-user', `${u.credentials.username}:wrong`]);
    expect(bad.exitCode).toBe(97); // CURLE_PROXY: the SOCKS5 server refused the credentials
  });

  it('curl --proxy (absolute form) and -p (CONNECT) through an http unit; 407 without credentials', async () => {
    const u = (await buy(t.sb, { protocol: 'http' })).body;
    const user = `${u.credentials.username}:${u.credentials.password}`;
    const proxy = `http://${u.ip}:${u.port}`;
    expect(await curl(['--proxy', proxy, '--proxy-user', user])).toMatchObject({ code: 200, body: { sourceAddress: u.ip } });
    expect(await curl(['-p', '--proxy', proxy, '--proxy-user', user])).toMatchObject({ code: 200, body: { sourceAddress: u.ip } });
    expect((await curl(['--proxy', proxy])).code).toBe(407);
  });
});
