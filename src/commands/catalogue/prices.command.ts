import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('prices').description('price schedule per period, after your discount');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: ['proxyctl prices', 'proxyctl prices --json | jq ".prices[\\"7d\\"]"'],
  load: async () => (await import('./prices.js')).default,
});
