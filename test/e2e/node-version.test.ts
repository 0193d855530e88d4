// Which Node runs the spawned binary: `node` on PATH, or PROXYCTL_TEST_NODE when
// scripts/test-node-versions.mjs runs this set on Node 22, 24 and the 20.18.1 floor. The binary
// says its Node in the User-Agent, so the server sees which one actually answered. The floor run
// also buys a unit from the sandbox: `engines` says >= 20.18.1, and that is what proves it.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { json, NODE, pickPools, proxyctl, REPO, startKit, startScriptedServer, tempHome } from '../helpers/index.js';

const expected = process.env.PROXYCTL_EXPECT_NODE;

describe('the Node the spawned binary runs on', () => {
  it('is the one the suite was asked to use (User-Agent node/<version>)', async () => {
    const version = (await execa(NODE, ['-p', 'process.versions.node'])).stdout.trim();
    if (expected) expect(version).toMatch(new RegExp(`^${expected.replace(/\./g, '\\.')}(\\.|$)`));
    const server = await startScriptedServer((_req, res) => json(res, 200, { balanceUsd: 1 }));
    const home = tempHome();
    try {
      const r = await proxyctl(['account', '--json'], {
        home,
        env: { PROXYCTL_BASE_URL: server.url, PROXYCTL_API_KEY: 'pk_test_node_version' },
      });
      expect(r.exitCode).toBe(0);
      expect(server.requests[0]!.headers['user-agent']).toMatch(new RegExp(`^proxyctl/\\S+ node/${version.replace(/\./g, '\\.')}$`));
    } finally {
      home.cleanup();
      await server.close();
    }
  });

  it('meets engines: --version, --help and a sandbox purchase', async () => {
    const { engines, version } = JSON.parse(readFileSync(`${REPO}package.json`, 'utf8'));
    expect(engines.node).toBe('>=20.18.1');
    const kit = await startKit();
    try {
      expect((await kit.run(['--version'])).stdout).toBe(version);
      const help = await kit.run(['--help']);
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain('units');
      const [pool] = await pickPools(kit);
      const before = await kit.state();
      const r = await kit.run(['units', 'create', '--pool', pool!.poolId, '--period', '7d', '--json']);
      expect(r.exitCode).toBe(0);
      const unit = JSON.parse(String(r.stdout));
      const after = await kit.state();
      expect(after.units.map((u) => u.proxyRef)).toEqual([...before.units.map((u) => u.proxyRef), unit.proxyRef]);
      expect(Math.round(after.balanceUsd * 100)).toBe(Math.round((before.balanceUsd - pool!.prices['7d']!) * 100));
    } finally {
      await kit.close();
    }
  });
});
