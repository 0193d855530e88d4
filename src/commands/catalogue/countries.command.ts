import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('countries').description('countries with pools, and their pool counts');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: ['proxyctl countries', 'proxyctl countries --json'],
  load: async () => (await import('./countries.js')).default,
});
