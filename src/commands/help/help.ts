// `proxyctl help [command...|topic]`: a command's help (any depth: `help units create`), or a
// topic. The topics' text lives with what it describes (exit codes in errors.ts, environment
// variables in globals.ts), so the README and this help cannot drift apart (a test compares them).
import type { Command } from 'commander';
import { type Input, TOPICS } from './help.command.js';
import { showText, type Result } from '../../kit/action.js';
import { ENVIRONMENT } from '../../globals.js';
import { EXIT_CODE_MEANINGS, UsageError } from '../../errors.js';

const TEXT: Record<keyof typeof TOPICS, { heading: string; items: () => [string, string][] }> = {
  environment: {
    heading: 'Environment variables (a flag wins over them; they win over the profile):',
    items: () => ENVIRONMENT.map((e) => [e.name, e.meaning]),
  },
  'exit-codes': {
    heading: 'Exit codes:',
    items: () => Object.entries(EXIT_CODE_MEANINGS),
  },
};

export default async function handler({ args: [path], ctx, command }: Input): Promise<Result> {
  const root = (command.parent ?? command) as unknown as Command;
  const topic = path.length === 1 && Object.hasOwn(TEXT, path[0]!) ? TEXT[path[0] as keyof typeof TOPICS] : undefined;
  if (topic) {
    // Drawn by commander's own help formatter, so a topic looks like the rest of the help.
    const helper = root.createHelp();
    helper.prepareContext({ helpWidth: ctx.io.columns ?? 80 });
    const items = topic.items();
    const width = Math.max(...items.map(([term]) => term.length));
    const lines = helper.formatItemList(
      topic.heading,
      items.map(([term, text]) => helper.formatItem(term, width, text, helper)),
      helper,
    );
    // The list ends in an empty line (the blank line under each heading of --help); the newline after it keeps it.
    return showText(`${lines.join('\n')}\n`);
  }
  let target = root;
  for (const name of path) {
    const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!next) {
      throw new UsageError(`unknown command or help topic "${path.join(' ')}"`, {
        hint: `help topics: ${Object.keys(TOPICS).join(', ')}; every command: proxyctl --help`,
      });
    }
    target = next;
  }
  // Prints the help and ends the run the way --help does (exit 0).
  target.help();
  return 0;
}
