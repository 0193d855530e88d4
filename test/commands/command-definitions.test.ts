// The command tree built from the definitions (src/commands/*/<verb>.command.ts): every verb
// runs something and shows examples, and a flag shared by several commands is the same flag.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { main } from '../../src/main.js';
import { commandTree, fakeIO } from '../helpers/index.js';

const tree = commandTree;

function walk(cmd: Command, path: string[] = []): { path: string; cmd: Command }[] {
  return [{ path: path.join(' '), cmd }, ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()]))];
}

// commander keeps the action handler in a private field; a group without one prints its help.
const hasAction = (c: Command) => (c as unknown as { _actionHandler: unknown })._actionHandler != null;

describe('command definitions', () => {
  const nodes = walk(tree()).slice(1);

  it('every command without subcommands has a handler and examples in its help', async () => {
    const leaves = nodes.filter((n) => n.cmd.commands.length === 0);
    expect(leaves.length).toBeGreaterThan(35);
    for (const { path, cmd } of leaves) {
      expect(hasAction(cmd), path).toBe(true);
      const io = fakeIO();
      expect(await main([...path.split(' '), '--help'], io), path).toBe(0);
      expect(io.out(), path).toContain('\nExamples:\n  $ proxyctl ');
    }
  });

  it('a long flag declared by several commands has one spelling of its value everywhere', () => {
    const seen = new Map<string, Set<string>>();
    for (const { cmd } of nodes) {
      for (const o of cmd.options) {
        // A hidden option is never offered (login's --api-key exists only to be refused).
        if (!o.long || o.hidden) continue;
        const set = seen.get(o.long) ?? new Set<string>();
        set.add(o.flags.replace(/^-\w, /, ''));
        seen.set(o.long, set);
      }
    }
    // --state is two different flags: a region filter (pools) and the sandbox's state file.
    seen.delete('--state');
    const inconsistent = [...seen].filter(([, s]) => s.size > 1).map(([k, s]) => `${k}: ${[...s].join(' | ')}`);
    expect(inconsistent).toEqual([]);
  });
});
