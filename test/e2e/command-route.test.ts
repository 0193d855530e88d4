// The CLI builds only the command typed (src/kit/action.ts register, src/main.ts commandWords):
// everything that needs more of the tree must still have it. A typo at any level is still told
// the nearest name, a parent's help still lists every verb, `help` still reaches any command, a
// global option's value is never taken for a command, and a default subcommand still runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, startKit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
});
afterAll(() => kit.close());

describe('building only the command typed', () => {
  it('a mistyped verb or noun is exit 2 with the nearest name', async () => {
    const verb = await kit.run(['units', 'lst']);
    expect(verb.exitCode).toBe(2);
    expect(String(verb.stderr)).toContain("unknown command 'lst'");
    expect(String(verb.stderr)).toContain('(Did you mean one of list, ls?)');
    const noun = await kit.run(['unit', 'list']);
    expect(noun.exitCode).toBe(2);
    expect(String(noun.stderr)).toContain('(Did you mean units?)');
  });

  it("a parent's help lists every verb, and `help` reaches a verb as its --help does", async () => {
    const units = await kit.run(['units', '--help']);
    expect(units.exitCode).toBe(0);
    for (const verb of ['list', 'get', 'create', 'extend', 'swap', 'change-protocol', 'modify', 'release', 'usage', 'check'])
      expect(String(units.stdout)).toMatch(new RegExp(`^  ${verb}\\b`, 'm'));
    const viaHelp = await kit.run(['help', 'units', 'extend']);
    const own = await kit.run(['units', 'extend', '--help']);
    expect(viaHelp.exitCode).toBe(0);
    expect(viaHelp.stdout).toBe(own.stdout);
    expect(String(own.stdout)).toContain('Usage: proxyctl units extend');
  });

  it("a global option's value that names a command is not taken for one", async () => {
    // A profile named `units`: were `--profile`'s value read as the command, only `units` would be
    // built and `pools` would be unknown.
    const login = await kit.run(['login', '--profile', 'units', '--api-key-stdin', '--base-url', kit.sb.baseUrl], {
      stdin: 'pipe',
      input: `${kit.sb.apiKey}\n`,
      env: { PROXYCTL_INSECURE_STORAGE: '1' },
    });
    expect(login.exitCode).toBe(0);
    const r = await kit.run(['--profile', 'units', '--jq', 'length', 'pools', '--country', 'US']);
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const pools = (await kit.api('/pools?country=US')) as { data: unknown[] };
    expect(String(r.stdout).trim()).toBe(String(pools.data.length));
    const named = await kit.run(['-o', 'json', 'units', 'list']);
    expect(named.exitCode).toBe(0);
    expect(JSON.parse(String(named.stdout))).toEqual([]);
  });

  it("a command's own option whose value names a sibling command is not taken for one", async () => {
    // `get` here is the value of --provider (of `pools list`, the default), not `pools get`.
    const r = await kit.run(['pools', '--provider', 'get', '--json']);
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: 'No pools match.' });
    expect(JSON.parse(String(r.stdout))).toEqual([]);
  });

  it('a noun given no verb runs its default one', async () => {
    const r = await kit.run(['pools', '--country', 'US', '--json']);
    expect(r.exitCode).toBe(0);
    const listed = JSON.parse(String(r.stdout)) as { poolId: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((p) => p.poolId.startsWith('US-'))).toBe(true);
  });
});
