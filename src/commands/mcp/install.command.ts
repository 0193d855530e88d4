import { Command, Option } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('install')
    .description("add proxyctl mcp to an agent host's MCP servers (its user settings), naming the profile, never the key")
    .argument('[flags...]', 'after --: the flags the client starts proxyctl mcp with, e.g. -- --allow-spend --budget 50')
    .addOption(
      new Option('--client <client>', 'the agent host')
        .choices(['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'])
        .makeOptionMandatory(),
    )
    .option('--name <name>', "the server's name in the client's list", 'proxyctl')
    .option('--dry-run', 'show the change; write nothing');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json'],
  examples: [
    'proxyctl mcp install --client claude-code --dry-run',
    'proxyctl --profile sandbox mcp install --client cursor -- --allow-write --allow-spend',
    'proxyctl mcp install --client codex -- --allow-spend --budget 50',
  ],
  load: async () => (await import('./install.js')).default,
});
