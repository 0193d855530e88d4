import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('mcp')
    .description('serve AI agents over MCP on stdio: read-only unless allowed; paying is quoted first, never twice')
    .option('--allow-write', 'add the tools that change units: modify, swap, release (release must be confirmed)')
    .option('--allow-spend', 'add the tools that pay: quote_create/create_units, quote_extend/extend_units')
    .option('--read-only', 'only the read tools, whatever else is allowed')
    .option('--budget <usd>', 'the most this server may charge in all while it runs, besides the profile budgets')
    .option('--reveal-credentials', 'show proxy passwords in results (masked otherwise)')
    .option('--quote-ttl <seconds>', 'how long a quote can be paid, in seconds: 10 to 3600', '300');
export type Input = InputOf<typeof command>;

/** `proxyctl mcp` serves; `proxyctl mcp install` writes a client's configuration to start it. */
export default defineCommand({
  command,
  // No formats: stdout carries the protocol.
  examples: ['proxyctl mcp', 'proxyctl mcp --allow-spend --budget 50', 'proxyctl --profile sandbox mcp --allow-write --allow-spend'],
  load: async () => (await import('./serve.js')).default,
});
