// `proxyctl --help` groups the commands like gh (Units, Catalogue, …), generated from the command
// definitions; every command's own help has examples and names the global options.
import { afterAll, describe, expect, it } from 'vitest';
import { commandPaths, commandTree, proxyctl, ran, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());

/** The tree the binary is built from, in this process (for its paths). */
const program = commandTree();

/** The commands listed under each heading of a help text: heading → first words of its items. */
function sections(help: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) {
      current = [];
      out.set(line.slice(0, -1), current);
    } else if (/^ {2}\S/.test(line) && current) current.push(line.trim().split(/\s+/)[0]!);
    else if (line === '') current = undefined;
  }
  return out;
}

describe('proxyctl --help', () => {
  it('lists the commands under the headings of the design, in order', async () => {
    const r = await ran(proxyctl(['--help'], { home }));
    expect(r.code).toBe(0);
    const s = sections(r.out);
    expect([...s.keys()]).toEqual([
      'Options',
      'Global options',
      'Units',
      'Catalogue',
      'Account',
      'Webhooks',
      'Sandbox',
      'Setup',
      'Tooling',
      'Examples',
      'Help topics',
    ]);
    expect(s.get('Units')).toEqual(['units']);
    expect(s.get('Catalogue')).toEqual(['prices', 'providers', 'countries', 'states', 'pools']);
    expect(s.get('Account')).toEqual(['me', 'account', 'status', 'spend', 'customers', 'ledger']);
    expect(s.get('Webhooks')).toEqual(['webhook']);
    expect(s.get('Sandbox')).toEqual(['sandbox']);
    expect(s.get('Setup')).toEqual(['login', 'logout', 'profiles', 'config', 'completion']);
    expect(s.get('Tooling')).toEqual(['api', 'openapi', 'mcp', 'help']);
    expect(s.get('Help topics')).toEqual(['environment', 'exit-codes']);
    expect(s.get('Global options')).toContain('--profile');
    expect(r.out).toContain('Environment: PROXYCTL_API_KEY, PROXYCTL_BASE_URL');
    // No command is left out of a group (commander's catch-all heading).
    expect(s.has('Commands')).toBe(false);
  });

  it('every command in the tree is listed under a group or its parent', async () => {
    const r = await ran(proxyctl(['--help'], { home }));
    const listed = [...sections(r.out).values()].flat();
    for (const c of program.commands) expect(listed, c.name()).toContain(c.name());
  });
});

describe("every command's help", () => {
  const all = commandPaths(program);
  const leaf = (p: string[]) => {
    let c = program;
    for (const n of p) c = c.commands.find((x) => x.name() === n)!;
    return c.commands.length === 0;
  };

  it('a command without subcommands has examples; every one names the global options', async () => {
    expect(all.length).toBeGreaterThan(40);
    const failures: string[] = [];
    // A few at a time: each is a process of the built binary.
    for (let i = 0; i < all.length; i += 4) {
      await Promise.all(
        all.slice(i, i + 4).map(async (p) => {
          const r = await ran(proxyctl([...p, '--help'], { home }));
          const name = p.join(' ');
          if (r.code !== 0) failures.push(`${name}: exit ${r.code}`);
          if (leaf(p) && !r.out.includes('\nExamples:\n  $ proxyctl ')) failures.push(`${name}: no examples`);
          const globals = r.out.replace(/\s+/g, ' ');
          if (!globals.includes('Global options (see proxyctl --help): --profile, --base-url, -o/--output, --json,'))
            failures.push(`${name}: no global options line`);
          if (!globals.includes('--timeout, --insecure.')) failures.push(`${name}: global options line incomplete`);
        }),
      );
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('proxyctl help COMMAND... prints the same help as COMMAND --help, at any depth', async () => {
    for (const p of [['units', 'create'], ['me', 'username', 'set'], ['pools']]) {
      const [a, b] = await Promise.all([ran(proxyctl(['help', ...p], { home })), ran(proxyctl([...p, '--help'], { home }))]);
      expect(a.code, p.join(' ')).toBe(0);
      expect(a.out, p.join(' ')).toBe(b.out);
    }
    const alias = await ran(proxyctl(['help', 'units', 'ls'], { home }));
    expect(alias.out).toContain('Usage: proxyctl units list|ls');
    const top = await ran(proxyctl(['help'], { home }));
    expect(top.code).toBe(0);
    expect(top.out).toContain('Help topics:');
  });

  it('an unknown command or topic after help exits 2 and names the topics', async () => {
    const r = await ran(proxyctl(['help', 'units', 'frobnicate'], { home }));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('unknown command or help topic "units frobnicate"');
    expect(r.err).toContain('help topics: environment, exit-codes');
  });
});
